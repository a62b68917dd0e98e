// Who is on the other end, as the MCU's auth asks it: whether a peer address is this machine
// itself (credentials over plain HTTP are taken only from there unless the firmware allows
// otherwise, as svc-server's -allow-insecure-creds), and whether an entity names this machine (a
// key without an id authenticates those), with the same spelling rules as svc-server's.

/** True for 127.0.0.0/8, ::1 and IPv4-mapped loopback; false for "" (a peer not known). */
export function isLoopbackPeer(address: string): boolean {
  const plain = address.toLowerCase().replace(/^::ffff:/, "");
  return plain === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(plain);
}

/** "Robot.Local." -> "robot.local"; "[::1]" -> "::1". */
function normalizeHost(host: string): string {
  let name = host.trim().toLowerCase();
  if (name.startsWith("[") && name.endsWith("]")) name = name.slice(1, -1);
  return name.endsWith(".") ? name.slice(0, -1) : name;
}

/** "robot.local:8080" -> {host, port}; "[::1]:8080" and a bare IPv6 address too; undefined for nonsense. */
function splitHostPort(text: string): { host: string; port: number | undefined } | undefined {
  if (text.startsWith("[")) {
    const close = text.indexOf("]");
    const rest = text.slice(close + 1);
    if (close < 0 || (rest !== "" && !/^:\d{1,5}$/.test(rest))) return undefined;
    return { host: text.slice(1, close), port: rest === "" ? undefined : Number(rest.slice(1)) };
  }
  const colon = text.lastIndexOf(":");
  if (colon < 0 || text.indexOf(":") !== colon) return text === "" ? undefined : { host: text, port: undefined };
  const port = text.slice(colon + 1);
  return /^\d{1,5}$/.test(port) ? { host: text.slice(0, colon), port: Number(port) } : undefined;
}

/**
 * True when `entity` is one of `names`, alone or with `port` (":8080"); case and a final dot do
 * not matter. Without a known port only the bare names match.
 */
export function entityNamesMachine(entity: string, names: readonly string[], port: number | undefined): boolean {
  const split = splitHostPort(entity);
  if (split === undefined || (split.port !== undefined && split.port !== port)) return false;
  const host = normalizeHost(split.host);
  return host !== "" && names.some((name) => normalizeHost(name) === host);
}

// The names this machine answers to on the API port: `localhost`, its hostname and
// `<hostname>.local`, the address it listens on (every address of every interface when it listens
// on all of them), and the names the configuration adds (fqdn, local_fqdn, allowed_hosts). A
// browser that reaches the machine under any other name was sent by a page that is not the
// machine's (DNS rebinding), so the Host check and the origins allowed are both built on this.
import { hostname as systemHostname, networkInterfaces, type NetworkInterfaceInfo } from "node:os";

export interface MachineNames {
  /** True for a host name or address (no port) of this machine; case and a final dot do not matter. */
  has(host: string): boolean;
  /** True for an entity naming this machine: one of its names, alone or with `port` (":8080"). */
  namesMachine(entity: string, port: number): boolean;
}

export interface MachineNamesOptions {
  /** The host the server listens on; undefined, "0.0.0.0" and "::" mean every interface. */
  readonly bindHost: string | undefined;
  /** Names the configuration adds, read on every miss so they follow it. */
  readonly extra: () => readonly string[];
  readonly hostname?: () => string;
  readonly interfaces?: () => NodeJS.Dict<NetworkInterfaceInfo[]>;
  /** Milliseconds since the epoch; the interfaces are read again at most once a second. */
  readonly now?: () => number;
}

const rereadAfterMs = 1000;

export function createMachineNames(options: MachineNamesOptions): MachineNames {
  const hostname = options.hostname ?? systemHostname;
  const interfaces = options.interfaces ?? networkInterfaces;
  const now = options.now ?? Date.now;
  const wildcard = options.bindHost === undefined || options.bindHost === "0.0.0.0" || options.bindHost === "::";
  let known = new Set<string>();
  let extraSeen: readonly string[] | undefined;
  let readAt = -Infinity;

  // Addresses come and go (DHCP, a cable plugged in), so a name not found re-reads them first.
  function read(): void {
    const names = new Set<string>(["localhost"]);
    const host = normalizeHost(hostname());
    if (host !== "") names.add(host).add(`${host}.local`);
    if (!wildcard) names.add(normalizeHost(options.bindHost!));
    else {
      for (const list of Object.values(interfaces())) {
        for (const info of list ?? []) names.add(normalizeHost(info.address));
      }
    }
    extraSeen = options.extra();
    for (const name of extraSeen) names.add(normalizeHost(name));
    known = names;
    readAt = now();
  }

  function has(host: string): boolean {
    const name = normalizeHost(host);
    if (known.has(name) && extraSeen === options.extra()) return true;
    if (extraSeen !== options.extra() || now() - readAt >= rereadAfterMs) read();
    return known.has(name);
  }

  return {
    has,
    namesMachine(entity, port) {
      const split = splitHostPort(entity);
      if (split === undefined) return false;
      return (split.port === undefined || split.port === port) && has(split.host);
    },
  };
}

/** "Robot.Example." -> "robot.example"; "[::1]" -> "::1"; "fe80::1%eth0" -> "fe80::1". */
export function normalizeHost(host: string): string {
  let name = host.trim().toLowerCase();
  if (name.startsWith("[") && name.endsWith("]")) name = name.slice(1, -1);
  const zone = name.indexOf("%");
  if (zone >= 0 && name.includes(":")) name = name.slice(0, zone);
  if (name.endsWith(".")) name = name.slice(0, -1);
  return name;
}

/** "robot.local:8080" -> {host, port}; "[::1]:8080", "::1" and "robot" too; undefined for nonsense. */
export function splitHostPort(text: string): { host: string; port: number | undefined } | undefined {
  if (text.startsWith("[")) {
    const close = text.indexOf("]");
    if (close < 0) return undefined;
    const rest = text.slice(close + 1);
    if (rest === "") return { host: text.slice(1, close), port: undefined };
    if (!/^:[0-9]{1,5}$/.test(rest)) return undefined;
    return { host: text.slice(1, close), port: Number(rest.slice(1)) };
  }
  const colon = text.lastIndexOf(":");
  // More than one colon without brackets: a bare IPv6 address, with no port.
  if (colon < 0 || text.indexOf(":") !== colon) return text === "" ? undefined : { host: text, port: undefined };
  const port = text.slice(colon + 1);
  if (!/^[0-9]{1,5}$/.test(port)) return undefined;
  return { host: text.slice(0, colon), port: Number(port) };
}

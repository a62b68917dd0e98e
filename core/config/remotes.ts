// Remote entries (Viam's `remotes`): other parts of the machine joined to this one. Beyond the
// schema: names unique, the address read into the URL it is dialled at (a scheme says plaintext
// or TLS; without one, `insecure` does), and intervals a machine can keep. A broken entry is left
// out with its issue; on a running machine that is a new error, so the edit is refused and the
// remotes run on as they were.
import type { RemoteConfig } from "./types.js";
import type { ValidatedRemote } from "./validated.js";
import type { IssueList } from "./issue-list.js";
import type { Segment } from "./data-path.js";
import { parseDuration } from "./duration.js";

const minimumIntervalMs = 100;
const maximumIntervalMs = 3_600_000;

// Ports an address without one is dialled at: viam-server's and svc-server's own for a bare
// host, the scheme's for a URL.
const defaultPorts = { bare: 8080, http: 80, https: 443 };

export function buildRemotes(entries: ValidatedRemote[], originalIndex: (index: number) => number, issues: IssueList): RemoteConfig[] {
  const built: RemoteConfig[] = [];
  const owners = new Map<string, string>();
  entries.forEach((entry, index) => {
    const path: Segment[] = ["remotes", originalIndex(index)];
    const owner = owners.get(entry.name);
    if (owner !== undefined) {
      issues.error([...path, "name"], `${JSON.stringify(entry.name)} is already used by ${owner}`);
      return;
    }
    const dial = readAddress(entry.address, entry.insecure);
    if ("problem" in dial) {
      issues.error([...path, "address"], dial.problem);
      return;
    }
    if (dial.schemeSays && entry.insecure && dial.url.startsWith("https:")) {
      issues.warning([...path, "insecure"], "is ignored: the address asks for TLS (https://)");
    }
    const check = interval(entry.connection_check_interval, "10s", [...path, "connection_check_interval"], issues);
    const reconnect = interval(entry.reconnect_interval, "1s", [...path, "reconnect_interval"], issues);
    if (check === undefined || reconnect === undefined) return;
    if (entry.auth !== undefined && entry.auth.credentials === undefined && entry.auth.entity !== "") {
      issues.error([...path, "auth", "credentials"], 'is required with an entity: {"type": "api-key", "payload": "<key>"}');
      return;
    }
    owners.set(entry.name, `remotes[${path[1]}]`);
    const remote: RemoteConfig = {
      name: entry.name,
      address: entry.address,
      url: dial.url,
      prefix: entry.prefix,
      insecure: entry.insecure,
      connection_check_interval: entry.connection_check_interval,
      connection_check_interval_ms: check,
      reconnect_interval: entry.reconnect_interval,
      reconnect_interval_ms: reconnect,
    };
    if (entry.auth?.credentials !== undefined) remote.auth = { entity: entry.auth.entity, credentials: entry.auth.credentials };
    built.push(remote);
  });
  return built;
}

function interval(text: string, example: string, path: Segment[], issues: IssueList): number | undefined {
  const ms = parseDuration(text);
  if (ms !== undefined && ms >= minimumIntervalMs && ms <= maximumIntervalMs) return ms;
  issues.error(path, `must be a duration from "100ms" to "1h", such as "${example}" (found ${JSON.stringify(text)})`);
  return undefined;
}

type Dial = { url: string; schemeSays: boolean } | { problem: string };

const withScheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/(.*)$/;
const hostName = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*\.?$/;
const ipv6 = /^\[[0-9A-Fa-f:.]+\]$/;

/** The URL an address is dialled at: "pi.local:8080" (TLS unless insecure), "http://..." or "https://...". */
export function readAddress(address: string, insecure: boolean): Dial {
  const shapes = '"host:port" (such as "pi.local:8080"), or "http://host:port" / "https://host:port"';
  const scheme = withScheme.exec(address);
  let rest = address;
  let tls = !insecure;
  let port = defaultPorts.bare;
  if (scheme) {
    const name = scheme[1]!.toLowerCase();
    if (name !== "http" && name !== "https") {
      return { problem: `must be ${shapes}: the scheme ${JSON.stringify(scheme[1])} is not dialled (found ${JSON.stringify(address)})` };
    }
    tls = name === "https";
    port = tls ? defaultPorts.https : defaultPorts.http;
    rest = scheme[2]!.endsWith("/") ? scheme[2]!.slice(0, -1) : scheme[2]!;
  }
  const split = splitHostPort(rest);
  if (split === undefined) return { problem: `must be ${shapes} (found ${JSON.stringify(address)})` };
  if (split.port !== undefined) {
    const n = Number(split.port);
    if (!/^[0-9]{1,5}$/.test(split.port) || n < 1 || n > 65535) return { problem: `must have a port from 1 to 65535 (found ${JSON.stringify(address)})` };
    port = n;
  }
  return { url: `${tls ? "https" : "http"}://${split.host}:${port}`, schemeSays: scheme !== null };
}

function splitHostPort(text: string): { host: string; port?: string } | undefined {
  if (text.startsWith("[")) {
    const close = text.indexOf("]");
    if (close < 0) return undefined;
    const host = text.slice(0, close + 1);
    const after = text.slice(close + 1);
    if (!ipv6.test(host) || (after !== "" && !after.startsWith(":"))) return undefined;
    return after === "" ? { host } : { host, port: after.slice(1) };
  }
  const colon = text.lastIndexOf(":");
  const host = colon < 0 ? text : text.slice(0, colon);
  if (!hostName.test(host)) return undefined;
  return colon < 0 ? { host } : { host, port: text.slice(colon + 1) };
}

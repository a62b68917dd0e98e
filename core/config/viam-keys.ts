// Keys of Viam's configuration format that svc-server knows but does not act on. A
// configuration written for viam-server runs unchanged: each such key is taken out before the
// schema sees it, and where it asks for something (a package, a job, tracing turned on) a warning
// says, entry by entry, that it is not acted on and why, instead of "unknown key". What only
// describes the configuration (its revision) goes quietly.
import { hasOwn, isRecord, type Segment } from "./data-path.js";
import type { IssueList } from "./issue-list.js";

interface Unserved {
  readonly key: string;
  /** Why it is not acted on; none for a key that asks for nothing. */
  readonly why?: string;
  /** Whether a value asks for nothing (tracing turned off), so nothing needs saying. */
  readonly idle?: (value: unknown) => boolean;
}

const topLevel: readonly Unserved[] = [
  { key: "packages", why: "svc-server fetches no packages besides registry modules" },
  { key: "package_path", why: "svc-server fetches no packages besides registry modules", idle: (v) => v === "" },
  { key: "jobs", why: "svc-server runs no scheduled jobs" },
  { key: "tracing", why: "svc-server records no traces", idle: (v) => !isRecord(v) || v.enabled !== true },
  { key: "enable_web_profile", why: "svc-server serves its profile with its -webprofile flag", idle: (v) => v !== true },
  { key: "fragments", why: "fragments are merged by svc-cloud before a configuration reaches the machine" },
  { key: "fragment_mods", why: "fragments are merged by svc-cloud before a configuration reaches the machine" },
  { key: "overwrite_fragment_status" },
  { key: "revision" },
];
const inNetwork: readonly Unserved[] = [{ key: "traffic_tunnel_endpoints", why: "svc-server tunnels no traffic" }];
const inResources: readonly Unserved[] = [{ key: "service_configs", why: "svc-server captures no data" }];
const inModules: readonly Unserved[] = [{ key: "status" }];
const inRemotes: readonly Unserved[] = [
  { key: "frame", why: "svc-server does not join a remote's frames to its own frame system", idle: (v) => v === null },
  { key: "service_configs", why: "svc-server captures no data", idle: (v) => Array.isArray(v) && v.length === 0 },
  { key: "secret", why: "svc-server signs in to a remote with an API key only (auth.credentials)", idle: (v) => v === "" },
  { key: "managed_by" },
];

/** Takes Viam's keys svc-server does not act on out of `data`, with a warning for each that asks for something. */
export function screenViamKeys(data: Record<string, unknown>, issues: IssueList): void {
  screen(data, [], topLevel, issues);
  if (isRecord(data.network)) screen(data.network, ["network"], inNetwork, issues);
  for (const list of ["components", "services", "modules", "remotes"]) {
    const entries = data[list];
    if (!Array.isArray(entries)) continue;
    const keys = list === "modules" ? inModules : list === "remotes" ? inRemotes : inResources;
    entries.forEach((entry, i) => {
      if (!isRecord(entry)) return;
      screen(entry, [list, i], keys, issues);
      if (list === "remotes") withoutNullCredentials(entry);
    });
  }
}

// Viam writes a remote without credentials as `"auth": {"credentials": null, "entity": ""}`.
function withoutNullCredentials(remote: Record<string, unknown>): void {
  const auth = remote.auth;
  if (isRecord(auth) && auth.credentials === null) delete auth.credentials;
}

function screen(object: Record<string, unknown>, at: Segment[], keys: readonly Unserved[], issues: IssueList): void {
  for (const { key, why, idle } of keys) {
    if (!hasOwn(object, key)) continue;
    const value = object[key];
    delete object[key];
    if (why === undefined || idle?.(value) === true) continue;
    const path = [...at, key];
    if (!Array.isArray(value)) {
      issues.warning(path, `is not acted on: ${why}`);
      continue;
    }
    value.forEach((entry, i) => issues.warning([...path, i], `${nameOf(entry)}is not acted on: ${why}`));
  }
}

// An entry's name (or type), quoted, to say which one a warning is about.
function nameOf(entry: unknown): string {
  if (!isRecord(entry)) return "";
  const name = typeof entry.name === "string" ? entry.name : typeof entry.type === "string" ? entry.type : undefined;
  return name === undefined ? "" : `${JSON.stringify(name)} `;
}

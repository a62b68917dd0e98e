// The smaller sections beyond what the schema checks: log rule patterns, global log levels, the
// listening address, TLS files and session window, and the cloud refresh interval (the auth
// section has a file of its own).
import type { CloudConfig, GlobalLogEntry, LogRule, NetworkConfig } from "./types.js";
import type { ValidatedCloud, ValidatedConfig } from "./validated.js";
import { expandModelName } from "./resources.js";
import type { IssueList } from "./issue-list.js";
import { logPatternProblem } from "./log-pattern.js";
import { parseDuration } from "./duration.js";

export function buildLogRules(rules: LogRule[], originalIndex: (index: number) => number, issues: IssueList): LogRule[] {
  return rules.filter((rule, index) => {
    const problem = logPatternProblem(rule.pattern);
    if (problem !== undefined) issues.error(["log", originalIndex(index), "pattern"], problem);
    return problem === undefined;
  });
}

/** `global_log_configuration` with its models written in full, as resources carry theirs. */
export function buildGlobalLog(entries: GlobalLogEntry[]): GlobalLogEntry[] {
  return entries.map((entry) => (entry.model === undefined ? entry : { ...entry, model: expandModelName(entry.model) }));
}

const defaultBindAddress = "localhost:8080";
// Viam's bounds of the session heartbeat window, and its default.
const heartbeatWindow = { minMs: 30, maxMs: 60_000, default: "2s", defaultMs: 2000 };

export function buildNetwork(validated: ValidatedConfig["network"], issues: IssueList): NetworkConfig {
  const network: NetworkConfig = { ...validated, sessions: sessionsOf(validated.sessions.heartbeat_window, issues) };
  const port = Number(network.bind_address.slice(network.bind_address.lastIndexOf(":") + 1));
  if (port > 65535) {
    issues.error(["network", "bind_address"], `must have a port from 0 to 65535 (found ${port})`);
    network.bind_address = defaultBindAddress;
  }
  const cert = network.tls_cert_file !== "";
  const key = network.tls_key_file !== "";
  if (cert !== key) {
    const [missing, given] = cert ? ["tls_key_file", "tls_cert_file"] : ["tls_cert_file", "tls_key_file"];
    issues.error(["network", missing], `is required when ${given} is set`);
    network.tls_cert_file = "";
    network.tls_key_file = "";
  }
  return network;
}

function sessionsOf(text: string, issues: IssueList): NetworkConfig["sessions"] {
  const ms = parseDuration(text);
  if (ms !== undefined && ms >= heartbeatWindow.minMs && ms <= heartbeatWindow.maxMs) return { heartbeat_window: text, heartbeat_window_ms: ms };
  issues.error(["network", "sessions", "heartbeat_window"], `must be a duration from "30ms" to "1m", such as "2s" (found ${JSON.stringify(text)})`);
  return { heartbeat_window: heartbeatWindow.default, heartbeat_window_ms: heartbeatWindow.defaultMs };
}

const minimumRefreshMs = 1000;

/** The cloud credentials, or undefined (with an issue) when they are missing or the refresh interval is unusable. */
export function buildCloud(cloud: ValidatedCloud, issues: IssueList): CloudConfig | undefined {
  if (cloud.api_key === undefined && cloud.secret === undefined) {
    issues.error(["cloud"], `needs the part's credentials: "api_key" ({"id", "key"}) or "secret"`);
    return undefined;
  }
  const refresh = parseDuration(cloud.refresh_interval) ?? 0;
  if (refresh < minimumRefreshMs) {
    issues.error(["cloud", "refresh_interval"], `must be at least "1s" (found ${JSON.stringify(cloud.refresh_interval)})`);
    return undefined;
  }
  return { ...cloud, refresh_interval_ms: refresh };
}

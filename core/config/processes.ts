// Process entries (Viam's `processes`): unique ids, a usable stop timeout, the stop signal by its
// one name. A broken entry is left out with its issue; the others still run. Viam's `username`
// (run as another user) is refused rather than ignored: a process would otherwise run with more
// rights than its entry asked for, under svc-server's own user.
import type { ProcessConfig, ProcessStopSignal } from "./types.js";
import type { ValidatedProcess } from "./validated.js";
import type { IssueList } from "./issue-list.js";
import { hasOwn, type Segment } from "./data-path.js";
import { parseDuration } from "./duration.js";

// Viam's defaults: SIGTERM, and 10 s between it and SIGKILL; nothing shorter than 100 ms.
const defaultStopSignal: ProcessStopSignal = "SIGTERM";
const defaultStopTimeout = "10s";
const minimumStopTimeoutMs = 100;

// Every way the schema lets a signal be written (Viam's spellings), by the signal it names.
const signalNames: Record<string, ProcessStopSignal> = {};
const spellings: Array<[ProcessStopSignal, string[]]> = [
  ["SIGHUP", ["HUP", "hangup", "1"]],
  ["SIGINT", ["INT", "interrupt", "2"]],
  ["SIGQUIT", ["QUIT", "quit", "3"]],
  ["SIGABRT", ["ABRT", "aborted", "abort", "6"]],
  ["SIGKILL", ["KILL", "killed", "kill", "9"]],
  ["SIGTERM", ["TERM", "terminated", "terminate", "15"]],
];
for (const [signal, others] of spellings) for (const name of [signal, ...others]) signalNames[name] = signal;

/** The signal a process entry's `stop_signal` names in any of Viam's spellings; undefined for "" or an unknown one. */
export function stopSignalNamed(text: string): ProcessStopSignal | undefined {
  return hasOwn(signalNames, text) ? signalNames[text] : undefined;
}

export function buildProcesses(
  entries: ValidatedProcess[],
  originalIndex: (index: number) => number,
  issues: IssueList,
): ProcessConfig[] {
  const built: ProcessConfig[] = [];
  const owners = new Map<string, string>();
  entries.forEach((entry, index) => {
    const path: Segment[] = ["processes", originalIndex(index)];
    const owner = owners.get(entry.id);
    if (owner !== undefined) {
      issues.error([...path, "id"], `${JSON.stringify(entry.id)} is already used by ${owner}`);
      return;
    }
    if (entry.username !== "") {
      issues.error([...path, "username"], "is not supported: a process runs as svc-server's own user (leave it out, or run svc-server as that user)");
      return;
    }
    const unpassable = unpassableValue(entry);
    if (unpassable) {
      issues.error([...path, ...unpassable.at], unpassable.message);
      return;
    }
    const stopTimeout = entry.stop_timeout === "" ? defaultStopTimeout : entry.stop_timeout;
    const stopMs = parseDuration(stopTimeout);
    if (stopMs === undefined || stopMs < minimumStopTimeoutMs) {
      issues.error([...path, "stop_timeout"], `must be a duration of at least "100ms", such as "10s" or "500ms" (found ${JSON.stringify(entry.stop_timeout)})`);
      return;
    }
    owners.set(entry.id, `processes[${path[1]}]`);
    built.push({
      id: entry.id,
      name: entry.name,
      args: entry.args,
      cwd: entry.cwd,
      one_shot: entry.one_shot,
      log: entry.log,
      env: entry.env,
      stop_signal: entry.stop_signal,
      stop_signal_name: signalNames[entry.stop_signal] ?? defaultStopSignal,
      stop_timeout: stopTimeout,
      stop_timeout_ms: stopMs,
    });
  });
  return built;
}

// What the system cannot hand a program: a NUL inside its name, arguments or environment, or
// "=" in a variable's name. Caught here, the entry is refused with its place (and without its
// value) instead of failing at each start.
const noNul = "must not contain a NUL character (no program can be given one)";

function unpassableValue(entry: ValidatedProcess): { at: Segment[]; message: string } | undefined {
  if (entry.name.includes("\0")) return { at: ["name"], message: noNul };
  if (entry.cwd.includes("\0")) return { at: ["cwd"], message: noNul };
  const arg = entry.args.findIndex((a) => a.includes("\0"));
  if (arg >= 0) return { at: ["args", arg], message: noNul };
  for (const [key, value] of Object.entries(entry.env)) {
    if (key.includes("=") || key === "") return { at: ["env", key], message: 'must be named without "=" (and not "")' };
    if (key.includes("\0") || value.includes("\0")) return { at: ["env", key], message: noNul };
  }
  return undefined;
}

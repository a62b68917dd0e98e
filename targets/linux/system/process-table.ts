// What the kernel says about processes, read from /proc: a process's group, the instant it
// started and its owner. The start time (clock ticks since boot) is what tells a process from a
// later one that was given the same PID, so a recorded PID is only ever acted on together with it.
import { readdirSync, readFileSync } from "node:fs";

export interface ProcessInfo {
  pid: number;
  /** Its process group. */
  pgid: number;
  /** Field 22 of /proc/<pid>/stat: when it started, in clock ticks since boot. */
  startTime: string;
  /** A zombie has exited and only waits for its parent to collect it. */
  zombie: boolean;
}

/** The process `pid` as /proc shows it now, or undefined when there is none. */
export function readProcess(pid: number): ProcessInfo | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command name may hold spaces and parentheses: the fields start after the last ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const pgid = Number(fields[2]);
  const startTime = fields[19];
  if (!Number.isInteger(pgid) || startTime === undefined || !/^\d+$/.test(startTime)) return undefined;
  return { pid, pgid, startTime, zombie: fields[0] === "Z" || fields[0] === "X" };
}

/** When `pid` started (see ProcessInfo.startTime), or undefined when it is gone. */
export function processStartTime(pid: number): string | undefined {
  return readProcess(pid)?.startTime;
}

/** The real user ID the process runs as, or undefined when it is gone. */
export function processUid(pid: number): number | undefined {
  try {
    const uid = /^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return uid === undefined ? undefined : Number(uid);
  } catch {
    return undefined;
  }
}

/** Every process there is now. */
export function listProcesses(): ProcessInfo[] {
  const found: ProcessInfo[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const info = readProcess(Number(name));
    if (info) found.push(info);
  }
  return found;
}

/** Compares start times as the numbers they are (they outgrow a double's exact range only after centuries). */
export function startedBefore(a: string, b: string): boolean {
  return a.length !== b.length ? a.length < b.length : a < b;
}

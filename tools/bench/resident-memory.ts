// A process's resident memory as the kernel counts it (VmRSS in /proc/PID/status), for the benches'
// memory goals.
import { readFileSync } from "node:fs";

/** Resident memory in MB (10^6 bytes, as the goals are written). */
export function residentMB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmRSS:"));
  if (line === undefined) throw new Error(`no VmRSS for process ${pid}`);
  return (Number(line.split(/\s+/)[1]) * 1024) / 1e6;
}

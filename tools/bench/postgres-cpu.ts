// PostgreSQL's CPU time, read from /proc: a server is a postmaster and a process per connection
// (and its checkpointer, writers, autovacuum), so its cost is the postmaster's own time, the time
// of the children it has reaped (a connection a pool closed), and every live child's. Measured
// before and after a window, the difference is what the database did for it, whichever of its
// processes did the work.
import { readdirSync, readFileSync } from "node:fs";

/** The fields of /proc/PID/stat after the command name, or undefined once the process is gone. */
function statFields(pid: number | string): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  } catch {
    return undefined;
  }
}

/** CPU seconds (user + system) of the server whose postmaster is `postmaster`, with all its processes. */
export function postgresCpuSeconds(postmaster: number): number {
  const own = statFields(postmaster);
  if (own === undefined) throw new Error(`no PostgreSQL postmaster ${postmaster} in /proc`);
  // utime, stime, then cutime and cstime: what its reaped children used.
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(entry);
    if (fields !== undefined && Number(fields[1]) === postmaster) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / 100;
}

// A svc-server left running by an agent that was killed (kill -9, power cut of the agent alone):
// the next agent stops it before starting its own, or two servers would fight over the port.
import { readFileSync, rmSync } from "node:fs";
import { sleep, type Clock } from "../../../../core/index.js";
import { signalGroup } from "./server-process.js";

/** Stops the server named by `pidFile` if it is still a running svc-server; returns its PID then. */
export async function stopOrphanServer(pidFile: string, graceMs: number, clock: Clock): Promise<number | undefined> {
  let pid: number;
  try {
    pid = Number.parseInt(readFileSync(pidFile, "utf8"), 10);
  } catch {
    return undefined;
  }
  rmSync(pidFile, { force: true });
  if (!Number.isInteger(pid) || pid <= 1 || !isSvcServer(pid)) return undefined;
  signalGroup(pid, "SIGTERM");
  const deadline = clock.now() + graceMs;
  while (alive(pid) && clock.now() < deadline) await sleep(clock, 50);
  if (alive(pid)) signalGroup(pid, "SIGKILL");
  while (alive(pid)) await sleep(clock, 20);
  return pid;
}

function isSvcServer(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("svc-server");
  } catch {
    return false;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    // A zombie still answers signal 0; its state says it is gone.
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

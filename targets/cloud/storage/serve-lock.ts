// The file a serving svc-cloud keeps in its data folder, holding its PID: a second server on the
// same folder is refused (machines would be told of revisions by one process and not the other),
// and so is a restore, which would swap the store under a running service. A file left by a
// process that no longer runs is stale and taken over.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Code, SvcError } from "../../../core/index.js";

export function serveLockFile(dataDir: string): string {
  return join(dataDir, "svc-cloud.pid");
}

/** The PID of the svc-cloud serving `dataDir`, or undefined when none does. */
export function servingPid(dataDir: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(serveLockFile(dataDir), "utf8");
  } catch {
    return undefined;
  }
  const pid = Number(text.trim());
  return Number.isInteger(pid) && pid > 0 && isRunning(pid) ? pid : undefined;
}

/** Records this process as serving `dataDir`; answers the release. Refused while another serves it. */
export function claimServeLock(dataDir: string): () => void {
  const file = serveLockFile(dataDir);
  const other = servingPid(dataDir);
  if (other !== undefined && other !== process.pid) {
    throw new SvcError(Code.FailedPrecondition, `svc-cloud (PID ${other}) already serves ${dataDir}; if it does not, remove ${file}`);
  }
  writeFileSync(file, `${process.pid}\n`, { mode: 0o600 });
  return () => {
    if (servingPid(dataDir) === process.pid) rmSync(file, { force: true });
  };
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (thrown) {
    // EPERM: it runs, as someone else.
    return (thrown as NodeJS.ErrnoException).code === "EPERM";
  }
}

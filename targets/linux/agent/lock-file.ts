// One agent per device: /run/svc-agent.lock holds the running agent's PID. The lock is created
// exclusively, so two agents starting at once cannot both win: the PID is written to a file of
// our own, which is then hard-linked to the lock name; link() fails when the name exists, as
// O_EXCL does, and the lock never appears without its PID (an empty lock would look stale). A
// lock left behind by an agent that died (its PID gone, or reused by a process that is not an
// agent) is taken over.
import { closeSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { dirname } from "node:path";

export interface AgentLockOptions {
  /** Whether the live process `pid` is an agent. Default: its /proc/<pid>/cmdline mentions svc-agent. */
  isAgentPid?: (pid: number) => boolean;
  /** Our PID. Default process.pid. */
  pid?: number;
}

export interface AgentLock {
  readonly path: string;
  readonly pid: number;
  /** Removes the lock if it still holds our PID. */
  release(): void;
}

/** Another agent runs: its PID and the lock that says so. */
export class AgentLockError extends Error {
  override name = "AgentLockError";
  constructor(
    readonly lockPath: string,
    readonly holder: number,
  ) {
    super(`another svc-agent (PID ${holder}) is running: ${lockPath} holds its PID`);
  }
}

export function acquireAgentLock(path: string, options: AgentLockOptions = {}): AgentLock {
  const pid = options.pid ?? process.pid;
  const isAgentPid = options.isAgentPid ?? cmdlineMentionsAgent;
  mkdirSync(dirname(path), { recursive: true });
  // Two tries: a stale lock is moved out of the way once, then the exclusive create decides.
  for (let attempt = 0; attempt < 2; attempt++) {
    if (createExclusive(path, pid)) return lockHandle(path, pid);
    const holder = readHolder(path);
    if (holder === pid) return lockHandle(path, pid);
    if (holder !== undefined && isAlive(holder) && isAgentPid(holder)) throw new AgentLockError(path, holder);
    takeAway(path, holder);
  }
  const holder = readHolder(path);
  throw new AgentLockError(path, holder ?? -1);
}

function createExclusive(path: string, pid: number): boolean {
  const own = `${path}.${pid}.new`;
  const fd = openSync(own, "w", 0o644);
  try {
    writeSync(fd, `${pid}\n`);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(own, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    unlinkSync(own);
  }
}

// Renamed aside before removal, and only if it still holds the stale PID we judged: if another
// agent took the lock over in between, its fresh lock is put back rather than deleted.
function takeAway(path: string, stale: number | undefined): void {
  const aside = `${path}.stale-${process.pid}`;
  try {
    renameSync(path, aside);
  } catch {
    return;
  }
  if (readHolder(aside) === stale) {
    unlinkSync(aside);
    return;
  }
  try {
    // Put back, but never over a lock created meanwhile.
    linkSync(aside, path);
  } catch {
    // Someone holds the name now; the exclusive create decides between us.
  }
  unlinkSync(aside);
}

function lockHandle(path: string, pid: number): AgentLock {
  return {
    path,
    pid,
    release() {
      if (readHolder(path) !== pid) return;
      try {
        unlinkSync(path);
      } catch {
        // Already gone.
      }
    },
  };
}

/** The PID in the lock; undefined when it is missing, empty or not a PID (a torn write). */
function readHolder(path: string): number | undefined {
  try {
    const text = readFileSync(path, "utf8").trim();
    return /^[1-9][0-9]*$/.test(text) ? Number(text) : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function cmdlineMentionsAgent(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("svc-agent");
  } catch {
    return false;
  }
}

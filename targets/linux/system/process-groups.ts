// Recorded process groups, and stopping what is left of them. A group is recorded as its ID and
// its leader's start time. Only a group that is provably the same one is signalled: its leader,
// if still there, has that start time, and every member started no earlier (a group's members are
// its leader's descendants, so a member older than the leader means the ID was given out again),
// and each runs as the expected user. Anything doubtful is left alone.
import { listProcesses, processUid, startedBefore, type ProcessInfo } from "./process-table.js";

export interface ProcessGroupRecord {
  pgid: number;
  /** The leader's start time when the group was recorded (see ProcessInfo.startTime). */
  startTime: string;
}

export interface StoppedGroup {
  pgid: number;
  /** How many of its processes were still running. */
  processes: number;
}

/** The running members of the recorded group, or none when the ID now names another group. */
export function membersOf(group: ProcessGroupRecord, uid: number | undefined): ProcessInfo[] {
  const members = listProcesses().filter((p) => p.pgid === group.pgid && !p.zombie);
  const leader = members.find((p) => p.pid === group.pgid);
  if (leader && leader.startTime !== group.startTime) return [];
  if (members.some((p) => startedBefore(p.startTime, group.startTime))) return [];
  if (uid !== undefined && members.some((p) => processUid(p.pid) !== uid)) return [];
  return members;
}

function signal(pgid: number, name: NodeJS.Signals): void {
  try {
    process.kill(-pgid, name);
  } catch {
    // Gone already.
  }
}

async function waitUntilGone(group: ProcessGroupRecord, uid: number | undefined, ms: number): Promise<boolean> {
  const giveUpAt = Date.now() + ms;
  for (;;) {
    if (membersOf(group, uid).length === 0) return true;
    if (Date.now() >= giveUpAt) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface StopGroupsOptions {
  /** SIGTERM first; SIGKILL to what is left after this long. */
  graceMs: number;
  /** Only processes of this user are signalled (default: this process's own). */
  uid?: number;
}

/** Stops the recorded groups that still run: SIGTERM, then SIGKILL. Returns those that ran. */
export async function stopProcessGroups(groups: readonly ProcessGroupRecord[], options: StopGroupsOptions): Promise<StoppedGroup[]> {
  const uid = options.uid ?? process.getuid?.();
  const running = groups.map((g) => ({ group: g, processes: membersOf(g, uid).length })).filter((g) => g.processes > 0);
  for (const { group } of running) signal(group.pgid, "SIGTERM");
  await Promise.all(
    running.map(async ({ group }) => {
      if (await waitUntilGone(group, uid, options.graceMs)) return;
      // Checked again just before: the group is still the recorded one while a member lives.
      if (membersOf(group, uid).length > 0) signal(group.pgid, "SIGKILL");
      await waitUntilGone(group, uid, 5_000);
    }),
  );
  return running.map(({ group, processes }) => ({ pgid: group.pgid, processes }));
}

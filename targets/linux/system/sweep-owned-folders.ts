// Clearing up after owners that died (see owned-folder.ts): every `<prefix><id>` folder under
// `base` whose owner socket no longer answers has its recorded process groups stopped (SIGTERM,
// then SIGKILL) and is removed, with its socket. Only what this user made is touched: a folder
// must be a real directory owned by this user and writable by no one else, or it is left alone,
// so nobody can have the sweeper (perhaps root) signal processes by planting records.
import { lstatSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { GROUPS_FOLDER, OWNED_FOLDER_ID } from "./owned-folder.js";
import { ownerIsAlive } from "./owner-socket.js";
import { stopProcessGroups, type ProcessGroupRecord, type StoppedGroup } from "./process-groups.js";

export interface SweptFolder {
  dir: string;
  /** Recorded groups that still had processes, now stopped. */
  groups: StoppedGroup[];
}

export interface SweepOptions {
  /** How long a group has after SIGTERM before SIGKILL. Default 5 s. */
  graceMs?: number;
}

function ownedByMe(path: string, uid: number | undefined, isDirectory: boolean): boolean {
  try {
    const stats = lstatSync(path);
    if (isDirectory ? !stats.isDirectory() : stats.isDirectory() || stats.isSymbolicLink()) return false;
    return (uid === undefined || stats.uid === uid) && (stats.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

function recordedGroups(dir: string): ProcessGroupRecord[] {
  let names: string[];
  try {
    names = readdirSync(join(dir, GROUPS_FOLDER));
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const match = /^(\d+)-(\d+)$/.exec(name);
    const pgid = Number(match?.[1]);
    return match && pgid > 1 ? [{ pgid, startTime: match[2]! }] : [];
  });
}

/** Sweeps what dead owners left under `base`; returns what it swept. */
export async function sweepOwnedFolders(base: string, prefix: string, options: SweepOptions = {}): Promise<SweptFolder[]> {
  const uid = process.getuid?.();
  let names: string[];
  try {
    names = readdirSync(base);
  } catch {
    return [];
  }
  const ids = new Set(
    names.flatMap((name) => {
      const id = name.startsWith(prefix) ? name.slice(prefix.length).replace(/\.sock$/, "") : "";
      return OWNED_FOLDER_ID.test(id) ? [id] : [];
    }),
  );
  const swept: SweptFolder[] = [];
  for (const id of ids) {
    const dir = join(base, `${prefix}${id}`);
    const socket = `${dir}.sock`;
    if (await ownerIsAlive(socket)) continue;
    const hasFolder = names.includes(`${prefix}${id}`);
    // Inside a folder of ours (0700) nobody else can have planted anything.
    if (hasFolder && ownedByMe(dir, uid, true)) {
      const groups = await stopProcessGroups(recordedGroups(dir), { graceMs: options.graceMs ?? 5_000, uid });
      rmSync(dir, { recursive: true, force: true });
      swept.push({ dir, groups });
    } else if (hasFolder) {
      continue;
    }
    if (ownedByMe(socket, uid, false)) rmSync(socket, { force: true });
  }
  return swept;
}

/** One line saying what was swept: folders, and the groups stopped with their process counts. */
export function describeSweep(swept: readonly SweptFolder[], owner: string): string {
  const groups = swept.flatMap((s) => s.groups);
  const processes = groups.reduce((sum, g) => sum + g.processes, 0);
  const what = swept.map((s) => (s.groups.length ? `${s.dir} (process groups ${s.groups.map((g) => g.pgid).join(", ")})` : s.dir)).join("; ");
  const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  return `swept what ${owner} processes that are gone left behind: ${count(swept.length, "folder", "folders")}, ${count(groups.length, "process group", "process groups")} stopped (${count(processes, "process", "processes")}): ${what}`;
}

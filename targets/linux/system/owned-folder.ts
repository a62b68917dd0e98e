// A private folder held by a live process, and the process groups it started, written down so
// that when it dies without cleaning up, the next one (see sweep-owned-folders.ts) can stop those
// groups and remove the folder. Layout, for prefix "svc-m-" in /tmp:
//   /tmp/svc-m-<id>.sock        the owner socket (owner-socket.ts): listened on while the owner lives
//   /tmp/svc-m-<id>/            the folder, mode 0700
//   /tmp/svc-m-<id>/groups/<pgid>-<start time>   one empty file per running process group
// The socket is made before the folder and removed after it, so a folder whose socket refuses
// connections (or is missing) never belongs to a live process. A record is one file created or
// removed whole, so a crash never leaves half of one.
import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { listenOwnerSocket, type OwnerSocket } from "./owner-socket.js";
import { processStartTime } from "./process-table.js";

/** The folder's ID: 12 hex digits. Folders named otherwise are not ours to sweep. */
export const OWNED_FOLDER_ID = /^[0-9a-f]{12}$/;
export const GROUPS_FOLDER = "groups";

export interface OwnedFolder {
  readonly dir: string;
  /** The socket proving the owner lives: `<dir>.sock`. */
  readonly ownerSocket: string;
  /** Writes down the group `pid` leads; returns what forgets it once the group is gone. */
  recordGroup(pid: number): () => void;
  /** Removes the folder, then gives up ownership. */
  remove(): Promise<void>;
}

export async function createOwnedFolder(base: string, prefix: string): Promise<OwnedFolder> {
  for (let attempt = 1; ; attempt++) {
    const dir = join(base, `${prefix}${randomBytes(6).toString("hex")}`);
    let owner: OwnerSocket;
    try {
      owner = await listenOwnerSocket(`${dir}.sock`);
    } catch (error) {
      // Another owner (or one that died) has that ID: draw another.
      if ((error as NodeJS.ErrnoException).code === "EADDRINUSE" && attempt < 10) continue;
      throw new Error(`cannot hold ${dir}.sock: ${(error as Error).message}`, { cause: error });
    }
    try {
      mkdirSync(dir, { mode: 0o700 });
      mkdirSync(join(dir, GROUPS_FOLDER), { mode: 0o700 });
    } catch (error) {
      await owner.close();
      if ((error as NodeJS.ErrnoException).code === "EEXIST" && attempt < 10) continue;
      throw new Error(`cannot make ${dir}: ${(error as Error).message}`, { cause: error });
    }
    return ownedFolder(dir, owner);
  }
}

function ownedFolder(dir: string, owner: OwnerSocket): OwnedFolder {
  let removed = false;
  return {
    dir,
    ownerSocket: owner.path,
    recordGroup(pid) {
      const startTime = processStartTime(pid);
      // Gone before it could be written down: nothing of it is left to stop.
      if (startTime === undefined || removed) return () => {};
      const record = join(dir, GROUPS_FOLDER, `${pid}-${startTime}`);
      writeFileSync(record, "");
      return () => rmSync(record, { force: true });
    },
    async remove() {
      removed = true;
      rmSync(dir, { recursive: true, force: true });
      await owner.close();
    },
  };
}

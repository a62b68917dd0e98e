// Where module sockets live: one private folder per svc-server, a socket per module and one for
// the parent (what modules call back into). The folder is held the way the kernel gives back when
// svc-server dies (see system/owned-folder.ts) and records the process group of each module it
// runs, so a svc-server that was killed leaves nothing for long: the next one (or the agent,
// before it starts one) stops those groups and removes the folder. Unix socket paths are limited
// to 103 bytes, so a name too long for the folder is replaced by a short digest of it.
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MAX_SOCKET_PATH_BYTES } from "../remote/index.js";
import { createOwnedFolder, MODULE_FOLDER_PREFIX, sweepModuleFolders, type ModuleFolderSweepOptions } from "../system/index.js";

export interface ModuleSockets {
  readonly dir: string;
  /** The socket path module `name` is told to listen on. */
  forModule(name: string): string;
  /** The socket svc-server serves its API on for modules. */
  readonly parent: string;
  /** Writes down the process group a module leads; returns what forgets it once the group is gone. */
  recordGroup(pid: number): () => void;
  /** Removes the folder and whatever is left in it. */
  remove(): Promise<void>;
}

/** Sweeps what dead svc-server processes left, then makes this one's folder. */
export async function createModuleSockets(options: ModuleFolderSweepOptions = {}): Promise<ModuleSockets> {
  await sweepModuleFolders(options);
  const folder = await createOwnedFolder(options.base ?? tmpdir(), MODULE_FOLDER_PREFIX);
  const { dir } = folder;
  const fit = (file: string) => {
    const path = join(dir, file);
    if (Buffer.byteLength(path) <= MAX_SOCKET_PATH_BYTES) return path;
    const short = join(dir, `${createHash("sha256").update(file).digest("hex").slice(0, 12)}.sock`);
    if (Buffer.byteLength(short) > MAX_SOCKET_PATH_BYTES) {
      throw new Error(`the module socket folder ${dir} is too long for unix sockets (${MAX_SOCKET_PATH_BYTES} bytes at most)`);
    }
    return short;
  };
  let parent: string;
  try {
    // A module name has no dot, so no module's socket can take this name.
    parent = fit("svc.parent.sock");
  } catch (error) {
    await folder.remove();
    throw error;
  }
  return {
    dir,
    forModule: (name) => fit(`${name}.sock`),
    parent,
    recordGroup: folder.recordGroup,
    remove: folder.remove,
  };
}

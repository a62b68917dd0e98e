// Where module sockets live: one private folder per svc-server, a socket per module and one for
// the parent (what modules call back into). Unix socket paths are limited to 103 bytes, so a
// name too long for the folder is replaced by a short digest of it.
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MAX_SOCKET_PATH_BYTES } from "../remote/index.js";


export interface ModuleSockets {
  readonly dir: string;
  /** The socket path module `name` is told to listen on. */
  forModule(name: string): string;
  /** The socket svc-server serves its API on for modules. */
  readonly parent: string;
  /** Removes the folder and whatever is left in it. */
  remove(): void;
}

export function createModuleSockets(base = tmpdir()): ModuleSockets {
  const dir = mkdtempSync(join(base, "svc-m-"));
  const fit = (file: string) => {
    const path = join(dir, file);
    if (Buffer.byteLength(path) <= MAX_SOCKET_PATH_BYTES) return path;
    const short = join(dir, `${createHash("sha256").update(file).digest("hex").slice(0, 12)}.sock`);
    if (Buffer.byteLength(short) > MAX_SOCKET_PATH_BYTES) {
      throw new Error(`the module socket folder ${dir} is too long for unix sockets (${MAX_SOCKET_PATH_BYTES} bytes at most)`);
    }
    return short;
  };
  return {
    dir,
    forModule: (name) => fit(`${name}.sock`),
    parent: fit("parent.sock"),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

// Writing files so that readers, and a program killed half-way, only ever see the old
// content or the new: a temporary file beside the target, flushed to disk, renamed over it, and
// the folder flushed. One place for it: state, caches, system files and credentials all use it,
// and so do the version store's folders and links, through the same temporary names.
import { chmodSync, closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { mkdir, open, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";

/** What marks a name as work in progress: `<name>.tmp-<pid>-<n>`. */
export const TEMPORARY_MARK = ".tmp-";
const OWNER = /\.tmp-(\d+)(?:-\d+)?$/;
// Two pieces of work of one process on the same path (two writes, two link swaps) must not share
// a temporary name: the PID names the process, the count the piece of work.
let made = 0;

/** A temporary name beside `path`, unique within this process and among live processes. */
export function temporaryPath(path: string): string {
  made += 1;
  return `${path}${TEMPORARY_MARK}${process.pid}-${made}`;
}

/** The PID of the process that made a temporary name, or undefined for a name that is not one. */
export function temporaryOwner(name: string): number | undefined {
  const match = OWNER.exec(name);
  return match ? Number(match[1]) : undefined;
}

export function writeFileAtomicSync(path: string, text: string, mode = 0o644): void {
  const temporary = temporaryPath(path);
  try {
    mkdirSync(dirname(path), { recursive: true });
    const fd = openSync(temporary, "w", mode);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    chmodSync(temporary, mode);
    renameSync(temporary, path);
  } catch (cause) {
    rmSync(temporary, { force: true });
    throw new Error(`cannot write ${path}: ${reason(cause)}`, { cause });
  }
  syncDirectorySync(dirname(path));
}

export async function writeFileAtomic(path: string, text: string, mode = 0o644): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = temporaryPath(path);
  try {
    const handle = await open(temporary, "w", mode);
    try {
      await handle.writeFile(text, "utf8");
      await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (cause) {
    await rm(temporary, { force: true });
    throw new Error(`cannot write ${path}: ${reason(cause)}`, { cause });
  }
  await syncDirectory(dirname(path));
}

/** Writes `text` unless the file already holds it (sparing the flash); true when it wrote. */
export function writeIfChanged(path: string, text: string, mode = 0o644): boolean {
  try {
    if (readFileSync(path, "utf8") === text) {
      chmodSync(path, mode);
      return false;
    }
  } catch {
    // Not there yet.
  }
  writeFileAtomicSync(path, text, mode);
  return true;
}

/** Removes the file if it is there; true when it removed one. */
export function removeIfPresent(path: string): boolean {
  try {
    rmSync(path);
    return true;
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw new Error(`cannot remove ${path}: ${reason(cause)}`, { cause });
  }
}

function reason(cause: unknown): string {
  const code = (cause as NodeJS.ErrnoException).code;
  return code === "EACCES" || code === "EPERM" ? "permission denied (run as root)" : (cause as Error).message;
}

/** Flushes a folder's entries (a rename in it) to disk; best effort where that is not allowed. */
export async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Some file systems refuse fsync on a directory; the rename itself is still atomic.
  }
}

function syncDirectorySync(dir: string): void {
  try {
    const fd = openSync(dir, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // As above.
  }
}

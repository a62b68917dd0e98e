// Where FTDC bytes go: files `svc-server-<UTC time>-<n>.ftdc` in one folder, a new one once the
// current one reaches `maxFileBytes`, the oldest removed so `keepFiles` remain. The folder is made
// on the first write, so a server that never records leaves nothing. Names sort in the order the
// files were begun (the time, then a counter for files begun in the same millisecond).
import { closeSync, mkdirSync, openSync, readdirSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";

export const FTDC_FILE_PATTERN = /^svc-server-\d{8}T\d{9}Z-\d{4}\.ftdc$/;

export interface FtdcFilesOptions {
  dir: string;
  /** Default 10 MB. */
  maxFileBytes?: number;
  /** Default 20. */
  keepFiles?: number;
  /** Milliseconds since the epoch, for the names of new files. */
  now: () => number;
}

export interface FtdcFiles {
  readonly dir: string;
  /** Appends to the current file (beginning one first if none is open); true when that file is now full and closed. */
  append(bytes: Uint8Array): boolean;
  /** The file being written, if one is open. */
  current(): string | undefined;
  /** The folder's FTDC files, oldest first. */
  list(): string[];
  /** Files closed full since start, in order: what an upload may take. */
  closed(): readonly string[];
  close(): void;
}

export function createFtdcFiles(options: FtdcFilesOptions): FtdcFiles {
  const maxFileBytes = options.maxFileBytes ?? 10_000_000;
  const keepFiles = options.keepFiles ?? 20;
  const closedFiles: string[] = [];
  let open: { path: string; fd: number; size: number } | undefined;
  let sequence = 0;

  const list = () => {
    try {
      return readdirSync(options.dir).filter((name) => FTDC_FILE_PATTERN.test(name)).sort().map((name) => join(options.dir, name));
    } catch {
      return [];
    }
  };

  const begin = () => {
    mkdirSync(options.dir, { recursive: true, mode: 0o700 });
    const stamp = new Date(options.now()).toISOString().replace(/[-:.]/g, "");
    const path = join(options.dir, `svc-server-${stamp}-${String(sequence++ % 10_000).padStart(4, "0")}.ftdc`);
    open = { path, fd: openSync(path, "wx", 0o600), size: 0 };
    for (const old of list().slice(0, -keepFiles)) rmSync(old, { force: true });
    return open;
  };

  const closeCurrent = () => {
    if (!open) return;
    closeSync(open.fd);
    open = undefined;
  };

  return {
    dir: options.dir,
    append(bytes) {
      const file = open ?? begin();
      writeSync(file.fd, bytes);
      file.size += bytes.length;
      if (file.size < maxFileBytes) return false;
      closedFiles.push(file.path);
      closeCurrent();
      return true;
    },
    current: () => open?.path,
    list,
    closed: () => closedFiles,
    close: closeCurrent,
  };
}

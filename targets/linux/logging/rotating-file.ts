// The -log-file destination: appends lines to FILE and rotates by size. When FILE would pass
// maxBytes it becomes FILE.1, FILE.1 becomes FILE.2 and so on; FILE.<maxFiles> is dropped, so the
// logs never take more than (maxFiles + 1) x maxBytes: a single write larger than maxBytes is cut
// to fit, and says how large it was, rather than passing the cap. Lines are written synchronously, so
// a crash loses none. A file that cannot be opened (its folder cannot be made, no permission) is
// a LogFileError at once: a program asked to log to a file it cannot write should not start. If
// writing fails later (no space, the file rotated onto a bad place), the failure is reported once
// through onError and every line from then on, the failing one included, goes to the fallback
// stream.
import { closeSync, fstatSync, openSync, renameSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { errorMessage } from "../../../core/index.js";
import { makeDirectorySync } from "../system/index.js";
import type { TextStream } from "./text-stream.js";

export const DEFAULT_LOG_FILE_MAX_BYTES = 10 * 1024 * 1024;
export const DEFAULT_LOG_FILE_MAX_FILES = 5;

export interface RotatingFileOptions {
  path: string;
  /** Size at which the file is rotated. Default 10 MiB. */
  maxBytes?: number;
  /** Rotated files kept (FILE.1 ... FILE.n). Default 5. */
  maxFiles?: number;
  /** Where lines go once the file has failed (stderr on a real machine). */
  fallback: TextStream;
  /** Called once, on the first failure after opening; the file is not tried again. */
  onError?: (error: Error) => void;
}

/** The log file cannot be opened; the message says why, `path` which file. */
export class LogFileError extends Error {
  override name = "LogFileError";
  constructor(
    readonly path: string,
    cause: unknown,
  ) {
    super(`cannot write the log file: ${errorMessage(cause)}`, { cause });
  }
}

export interface RotatingFile extends TextStream {
  readonly path: string;
  /** True once the file failed and lines go to the fallback. */
  readonly failed: boolean;
  close(): void;
}

export function createRotatingFile(options: RotatingFileOptions): RotatingFile {
  const { path, fallback, onError } = options;
  const maxBytes = Math.max(1, options.maxBytes ?? DEFAULT_LOG_FILE_MAX_BYTES);
  const maxFiles = Math.max(0, Math.floor(options.maxFiles ?? DEFAULT_LOG_FILE_MAX_FILES));
  let fd: number | undefined;
  let size = 0;
  let failed = false;

  function giveUp(): void {
    failed = true;
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {
        /* already unusable */
      }
      fd = undefined;
    }
  }

  function report(error: unknown): void {
    onError?.(error instanceof Error ? error : new Error(String(error)));
  }

  function open(): void {
    makeDirectorySync(dirname(path));
    fd = openSync(path, "a");
    size = fstatSync(fd).size;
  }

  function rotate(): void {
    closeSync(fd!);
    fd = undefined;
    if (maxFiles === 0) {
      fd = openSync(path, "w");
      size = 0;
      return;
    }
    for (let i = maxFiles - 1; i >= 1; i--) renameIfPresent(`${path}.${i}`, `${path}.${i + 1}`);
    renameIfPresent(path, `${path}.1`);
    open();
  }

  try {
    open();
  } catch (error) {
    throw new LogFileError(path, error);
  }

  return {
    path,
    get failed() {
      return failed;
    },
    write(text: string) {
      if (failed) return fallback.write(text);
      try {
        const buffer = fitted(Buffer.from(text), maxBytes);
        if (size > 0 && size + buffer.length > maxBytes) rotate();
        writeAll(fd!, buffer);
        size += buffer.length;
      } catch (error) {
        giveUp();
        // The line that failed goes first, then the report of why.
        fallback.write(text);
        report(error);
      }
      return true;
    },
    close() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}

// A write larger than the whole file keeps its start and ends with how large it was.
function fitted(buffer: Buffer, maxBytes: number): Buffer {
  if (buffer.length <= maxBytes) return buffer;
  const note = Buffer.from(`… (${buffer.length} bytes)\n`);
  if (note.length >= maxBytes) return note.subarray(0, maxBytes);
  let keep = maxBytes - note.length;
  // Never end inside a UTF-8 character (continuation bytes are 10xxxxxx).
  while (keep > 0 && (buffer[keep]! & 0xc0) === 0x80) keep--;
  return Buffer.concat([buffer.subarray(0, keep), note]);
}

function renameIfPresent(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

// writeSync may write less than asked (a full pipe, a signal); finish the line rather than tear it.
function writeAll(fd: number, buffer: Buffer): void {
  let rest = buffer;
  while (rest.length > 0) {
    const written = writeSync(fd, rest);
    if (written <= 0) throw new Error("the log file accepts no more data");
    rest = rest.subarray(written);
  }
}

// Files parts upload (diagnostics, captures), kept per part in the data folder as
// `files/<part id>/<file id>`: both ids are svc-cloud's own UUIDs, so nothing an uploader writes
// ever becomes part of a path. Bytes go to `<file id>.partial` first and are renamed only when
// complete; the row that lists the file is written after the rename, so a listed file is always
// whole, and an upload that fails leaves nothing behind. An upload cut short by the process itself
// ending (a crash, a power cut) can leave a `.partial` file, or a whole file its row was never
// written for; the uploader was never told it succeeded, so both are removed at the next start.
import { createHash } from "node:crypto";
import { createReadStream, type ReadStream } from "node:fs";
import { mkdir, open, readdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import type { Kysely } from "kysely";
import { Code, SvcError } from "../../../core/index.js";
import type { PartFilesTable, Tables } from "./tables.js";

/** The largest file a part may upload. */
export const MAX_FILE_BYTES = 64 * 1024 * 1024;

export function partFilesDir(dataDir: string, partId: string): string {
  return join(dataDir, "files", partId);
}

export interface FileWriter {
  /** Appends a chunk; ResourceExhausted (and nothing kept) past MAX_FILE_BYTES. */
  write(chunk: Uint8Array): Promise<void>;
  /** Makes the file whole under its final name; answers its size and hash. */
  commit(): Promise<{ size: number; sha256: string }>;
  /** Removes whatever was written. */
  abandon(): Promise<void>;
}

export async function createFileWriter(dataDir: string, partId: string, fileId: string, maxBytes = MAX_FILE_BYTES): Promise<FileWriter> {
  const dir = partFilesDir(dataDir, partId);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const partial = join(dir, `${fileId}.partial`);
  const handle = await open(partial, "wx", 0o600);
  const hash = createHash("sha256");
  let size = 0;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await handle.close();
  };
  return {
    write: async (chunk) => {
      size += chunk.byteLength;
      if (size > maxBytes) throw new SvcError(Code.ResourceExhausted, `the file is larger than ${maxBytes} bytes, the most a part may upload`);
      hash.update(chunk);
      await handle.write(chunk);
    },
    commit: async () => {
      await handle.sync();
      await close();
      await rename(partial, join(dir, fileId));
      return { size, sha256: hash.digest("hex") };
    },
    abandon: async () => {
      await close().catch(() => undefined);
      await rm(partial, { force: true });
      await rm(join(dir, fileId), { force: true });
    },
  };
}

/**
 * Removes what uploads cut short left in the data folder: `.partial` files, and files no row
 * lists. Run at start, before any upload. Answers how many were removed.
 */
export async function sweepUnfinishedUploads(dataDir: string, db: Kysely<Tables>): Promise<number> {
  const root = join(dataDir, "files");
  const parts = await readdir(root, { withFileTypes: true }).catch(() => []);
  let removed = 0;
  for (const part of parts) {
    if (!part.isDirectory()) continue;
    const listed = new Set((await db.selectFrom("part_files").select("id").where("part_id", "=", part.name).execute()).map((r) => r.id));
    for (const name of await readdir(join(root, part.name))) {
      if (listed.has(name)) continue;
      await rm(join(root, part.name, name), { force: true, recursive: true });
      removed += 1;
    }
  }
  return removed;
}

export async function recordFile(db: Kysely<Tables>, row: PartFilesTable): Promise<void> {
  await db.insertInto("part_files").values(row).execute();
}

/** The part's files, newest first. */
export function listPartFiles(db: Kysely<Tables>, partId: string): Promise<PartFilesTable[]> {
  return db.selectFrom("part_files").selectAll().where("part_id", "=", partId).orderBy("created_at", "desc").orderBy("id").execute();
}

export async function findPartFile(db: Kysely<Tables>, partId: string, fileId: string): Promise<PartFilesTable> {
  const row = await db.selectFrom("part_files").selectAll().where("part_id", "=", partId).where("id", "=", fileId).executeTakeFirst();
  if (row === undefined) throw new SvcError(Code.NotFound, `part ${partId} has no file ${fileId}`);
  return row;
}

/** The file's bytes, in chunks of `chunkBytes`. */
export function readPartFile(dataDir: string, row: PartFilesTable, chunkBytes: number): ReadStream {
  return createReadStream(join(partFilesDir(dataDir, row.part_id), row.id), { highWaterMark: chunkBytes });
}

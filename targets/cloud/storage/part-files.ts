// Files parts upload (diagnostics, captures): a row of `part_files` per file, its bytes in the file
// store (storage/file-store.ts) as `files/<part id>/<file id>`. Both ids are svc-cloud's own
// UUIDs, so nothing an uploader writes ever becomes part of a key or a path. The bytes are staged
// first and kept in the transaction that writes the row, so a listed file is always whole and an
// upload that fails leaves nothing behind. In the data folder (SQLite), an upload cut short by the
// process itself ending (a crash, a power cut) can leave a `.partial` file, or a whole file its row
// was never written for; the uploader was never told it succeeded, so both are removed at the next
// start. In the database (PostgreSQL) such an upload never committed, and left nothing.
import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { Kysely } from "kysely";
import { Code, SvcError } from "../../../core/index.js";
import type { FileStore, StagedFile } from "./file-store.js";
import type { PartFilesTable, Tables } from "./tables.js";

/** The largest file a part may upload. */
export const MAX_FILE_BYTES = 64 * 1024 * 1024;

/** The folder of a part's files in the data folder, where the store is SQLite. */
export function partFilesDir(dataDir: string, partId: string): string {
  return join(dataDir, "files", partId);
}

/** The file store's key of a part's file. */
export function partFileKey(partId: string, fileId: string): string {
  return `files/${partId}/${fileId}`;
}

/** Keeps `staged` as the part's file `row` describes, bytes and row in one transaction; abandons it if that fails. */
export async function keepPartFile(db: Kysely<Tables>, staged: StagedFile, row: Omit<PartFilesTable, "size" | "sha256">): Promise<PartFilesTable> {
  const whole = { ...row, size: staged.size, sha256: staged.sha256 };
  try {
    await db.transaction().execute(async (tx) => {
      await staged.keep(tx);
      await tx.insertInto("part_files").values(whole).execute();
    });
  } catch (thrown) {
    await staged.abandon();
    throw thrown;
  }
  return whole;
}

/**
 * Removes what uploads and release imports cut short left in the data folder: `.partial` files,
 * files no row lists, and spool files (on PostgreSQL an upload spools to a file unlinked as soon
 * as it is opened: a process ended in between leaves it). Run at start, before any upload, so no
 * spool file is in use. Answers how many were removed.
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
  // A `release add` cut short leaves its copy under a `.partial` name beside the releases.
  const releases = join(dataDir, "releases");
  for (const name of await readdir(releases).catch(() => [])) {
    if (!name.endsWith(".partial")) continue;
    await rm(join(releases, name), { force: true });
    removed += 1;
  }
  const spool = join(dataDir, "spool");
  for (const name of await readdir(spool).catch(() => [])) {
    await rm(join(spool, name), { force: true, recursive: true });
    removed += 1;
  }
  return removed;
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

/** The file's bytes, in pieces of at most `pieceBytes`. */
export function readPartFile(files: FileStore, row: PartFilesTable, pieceBytes: number): AsyncIterable<Uint8Array> {
  return files.open(partFileKey(row.part_id, row.id), pieceBytes);
}

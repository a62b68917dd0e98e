// The file store in PostgreSQL: a file is the rows of `file_blobs` under its key, its bytes in order
// of `seq`, at most BLOB_CHUNK_BYTES a row. Every replica serves every file however it came in,
// and `backup` (pg_dump) carries the files with the rest of the state.
//
// Staging writes to a spool file in the data folder that is unlinked as soon as it is opened and
// read back through its handle: an upload a client paces holds a file handle, never one of the
// pool's connections, and a process that ends mid-upload leaves nothing on disk. `keep` copies the
// spool into rows through the transaction that writes the rows listing the file, so the file and
// its listing commit together; a transaction that fails or never commits (a crash, a connection
// lost) leaves no row. Reading asks for one row at a time: no connection is held between rows and
// no more than one row's bytes are in memory.
import { randomUUID } from "node:crypto";
import { mkdir, open, rm, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import type { Kysely } from "kysely";
import { Code, SvcError } from "../../../core/index.js";
import { checkedKey, type FileStore, type StagedFile } from "./file-store.js";
import { receiveInto } from "./file-store-staging.js";
import type { Tables } from "./tables.js";

/** The most bytes one row of `file_blobs` holds. */
export const BLOB_CHUNK_BYTES = 1024 * 1024;

export function createDatabaseFileStore(db: Kysely<Tables>, dataDir: string): FileStore {
  const spool = join(dataDir, "spool");
  return {
    stage: (key, source) => stageSpooled(spool, checkedKey(key), source),
    open: (key, pieceBytes) => blobPieces(db, checkedKey(key), pieceBytes),
    async size(key) {
      const row = await db
        .selectFrom("file_blobs")
        .select((eb) => [eb.fn.countAll().as("chunks"), eb.fn.sum(eb.fn("octet_length", [eb.ref("bytes")])).as("bytes")])
        .where("blob_id", "=", checkedKey(key))
        .executeTakeFirstOrThrow();
      return Number(row.chunks) === 0 ? undefined : Number(row.bytes);
    },
  };
}

async function stageSpooled(spool: string, key: string, source: AsyncIterable<Uint8Array>): Promise<StagedFile> {
  await mkdir(spool, { recursive: true, mode: 0o700 });
  const path = join(spool, randomUUID());
  const handle = await open(path, "wx+", 0o600);
  let received: { size: number; sha256: string };
  try {
    await rm(path);
    received = await receiveInto(handle, source);
  } catch (thrown) {
    await handle.close().catch(() => undefined);
    throw thrown;
  }
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= handle.close());
  return {
    ...received,
    async keep(tx) {
      try {
        await copyIntoRows(tx, key, handle, received.size);
      } finally {
        await close();
      }
    },
    abandon: () => close().catch(() => undefined),
  };
}

/** Writes the spool's `size` bytes as the rows of `key`, in `tx`; a key no row lists may hold rows of an earlier attempt, replaced. */
async function copyIntoRows(tx: Kysely<Tables>, key: string, spool: FileHandle, size: number): Promise<void> {
  if (!tx.isTransaction) throw new SvcError(Code.Internal, "a file is kept inside the transaction that lists it");
  await tx.deleteFrom("file_blobs").where("blob_id", "=", key).execute();
  // An empty file is one empty row, so that it is found.
  for (let seq = 0, at = 0; seq === 0 || at < size; seq += 1) {
    const bytes = Buffer.allocUnsafe(Math.min(BLOB_CHUNK_BYTES, size - at));
    for (let filled = 0; filled < bytes.length; ) {
      const { bytesRead } = await spool.read(bytes, filled, bytes.length - filled, at + filled);
      if (bytesRead === 0) throw new SvcError(Code.DataLoss, `the spooled bytes of ${key} end at ${at + filled} of ${size}`);
      filled += bytesRead;
    }
    await tx.insertInto("file_blobs").values({ blob_id: key, seq, bytes }).execute();
    at += bytes.length;
  }
}

async function* blobPieces(db: Kysely<Tables>, key: string, pieceBytes: number): AsyncGenerator<Uint8Array> {
  for (let seq = 0; ; seq += 1) {
    const row = await db.selectFrom("file_blobs").select("bytes").where("blob_id", "=", key).where("seq", "=", seq).executeTakeFirst();
    if (row === undefined) {
      if (seq === 0) throw new SvcError(Code.NotFound, `no file ${key} in the database`);
      return;
    }
    for (let at = 0; at < row.bytes.byteLength; at += pieceBytes) yield row.bytes.subarray(at, at + pieceBytes);
  }
}

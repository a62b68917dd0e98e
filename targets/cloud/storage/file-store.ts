// Where the bytes of the files svc-cloud keeps live: what parts upload and the release artifacts
// `release add` imports. Beside a SQLite store they are files in the data folder
// (file-store-folder.ts); with PostgreSQL they are rows of the database (file-store-database.ts),
// since replicas each have a data folder of their own and every one must serve every file.
// fileStoreOf (file-store-of.ts) chooses by the store.
//
// A file is kept in two steps, so that the rows listing it and its bytes become visible together:
// `stage` takes the bytes in, hashing them, and nothing is a file yet; `keep(tx)`, inside the
// transaction that writes the rows listing it, makes it one. A file is named by a key of
// svc-cloud's own making (`files/<part id>/<file id>`, `releases/<artifact>`), never by anything a
// client sent.
import type { Kysely } from "kysely";
import { Code, SvcError } from "../../../core/index.js";
import type { Tables } from "./tables.js";

export interface FileStore {
  /**
   * Takes in what `source` yields for the file `key`. A throw from `source` (a limit, a client gone)
   * leaves nothing behind.
   */
  stage(key: string, source: AsyncIterable<Uint8Array>): Promise<StagedFile>;
  /** The file's bytes, in pieces of at most `pieceBytes`; NotFound when it is not kept. */
  open(key: string, pieceBytes: number): AsyncIterable<Uint8Array>;
  /** The file's size; undefined when it is not kept. */
  size(key: string): Promise<number | undefined>;
}

export interface StagedFile {
  readonly size: number;
  /** Hex SHA-256 of the bytes. */
  readonly sha256: string;
  /** Makes the bytes the file, as part of `tx`: call it in the transaction writing the rows that list the file. */
  keep(tx: Kysely<Tables>): Promise<void>;
  /** Removes the staged bytes and, when the transaction that kept them failed, what keep made. */
  abandon(): Promise<void>;
}

const KEY = /^(?:[A-Za-z0-9][A-Za-z0-9._+-]{0,200}\/){1,2}[A-Za-z0-9][A-Za-z0-9._+-]{0,200}$/;

/** `key`, checked to be a relative path of plain names (one or two folders, then a file). */
export function checkedKey(key: string): string {
  if (!KEY.test(key)) throw new SvcError(Code.Internal, `${JSON.stringify(key)} is not a file key`);
  return key;
}

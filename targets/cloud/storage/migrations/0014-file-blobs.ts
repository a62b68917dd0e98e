// The bytes of files kept in the database (storage/file-store-database.ts): with PostgreSQL,
// parts' uploads and imported releases live here rather than in a data folder, in rows of at most
// 1 MiB, `seq` giving their order. Made on SQLite too, so both stores have one schema; there the
// files stay in the data folder and the table stays empty.
import { SqliteAdapter, type Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  const isSqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  await db.schema
    .createTable("file_blobs")
    .addColumn("blob_id", "text", (c) => c.notNull())
    .addColumn("seq", "integer", (c) => c.notNull())
    .addColumn("bytes", isSqlite ? "blob" : "bytea", (c) => c.notNull())
    .addPrimaryKeyConstraint("file_blobs_pk", ["blob_id", "seq"])
    .execute();
}

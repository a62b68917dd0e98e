// Machines' log entries, kept 30 days. Every query the API makes has its index: one part's
// entries newest first, of some levels, and the retention sweep's oldest-first deletion by time.
// The id is an integer the store assigns (an identity column on PostgreSQL): it orders entries of
// the same millisecond and makes page tokens exact.
import { SqliteAdapter, type Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  const isSqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  await db.schema
    .createTable("logs")
    .addColumn("id", isSqlite ? "integer" : "bigint", (c) => (isSqlite ? c.primaryKey() : c.primaryKey().generatedByDefaultAsIdentity()))
    .addColumn("part_id", "text", (c) => c.notNull())
    .addColumn("time", "bigint", (c) => c.notNull())
    .addColumn("level", "text", (c) => c.notNull())
    .addColumn("host", "text", (c) => c.notNull())
    .addColumn("logger", "text", (c) => c.notNull())
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("caller", "text")
    .addColumn("stack", "text", (c) => c.notNull())
    .addColumn("fields", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("logs_by_part_time").on("logs").columns(["part_id", "time"]).execute();
  await db.schema.createIndex("logs_by_part_level_time").on("logs").columns(["part_id", "level", "time"]).execute();
  await db.schema.createIndex("logs_by_time").on("logs").column("time").execute();
}

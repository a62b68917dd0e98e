// On PostgreSQL, log chunks are kept in one partition per UTC day of arrival (storage/log-partitions.ts),
// so that retention drops a day's table rather than deleting its rows. A table cannot become
// partitioned in place: the old one is set aside, the partitioned one made with the same columns,
// indexes and id (the primary key takes `received` too, as PostgreSQL requires of a partition key),
// the partitions the stored rows need made, the rows moved with their ids, the ids' sequence carried
// on from where it was, and the old table dropped. The migration runs in one transaction under the
// migration lock (migrate-store.ts): replicas starting together wait, then find it done. SQLite
// keeps its one table.
import { sql, type Kysely } from "kysely";
import { createLogPartition, DAY_MS } from "../log-partitions.js";
import { isPostgres } from "../store-dialect.js";

const COLUMNS = sql.join(["id", "part_id", "received", "first_time", "last_time", "levels", "entries", "body"].map((c) => sql.id(c)));

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  const { rows } = await sql<{ last: number | null }>`select pg_sequence_last_value(pg_get_serial_sequence('log_chunks', 'id')::regclass) as last`.execute(db);
  const lastId = rows[0]?.last ?? null;
  await setAside(db);
  await db.schema
    .createTable("log_chunks")
    .addColumn("id", "bigint", (c) => c.notNull().generatedByDefaultAsIdentity())
    .addColumn("part_id", "text", (c) => c.notNull())
    .addColumn("received", "bigint", (c) => c.notNull())
    .addColumn("first_time", "bigint", (c) => c.notNull())
    .addColumn("last_time", "bigint", (c) => c.notNull())
    .addColumn("levels", "integer", (c) => c.notNull())
    .addColumn("entries", "integer", (c) => c.notNull())
    .addColumn("body", "bytea", (c) => c.notNull())
    .addPrimaryKeyConstraint("log_chunks_pkey", ["id", "received"])
    .modifyEnd(sql`partition by range (received)`)
    .execute();
  const days = await sql<{ day: number }>`select distinct floor(received::numeric / ${sql.lit(DAY_MS)}) as day from log_chunks_unpartitioned order by day`.execute(db);
  for (const { day } of days.rows) await createLogPartition(db, Number(day) * DAY_MS);
  await sql`insert into log_chunks (${COLUMNS}) select ${COLUMNS} from log_chunks_unpartitioned`.execute(db);
  if (lastId !== null) await sql`select setval(pg_get_serial_sequence('log_chunks', 'id'), ${lastId})`.execute(db);
  await db.schema.dropTable("log_chunks_unpartitioned").execute();
  // Made once the rows are in (faster than keeping them up row by row); each partition gets its own.
  await db.schema.createIndex("log_chunks_by_part").on("log_chunks").columns(["part_id", "last_time", "id"]).execute();
  await db.schema.createIndex("log_chunks_by_received").on("log_chunks").column("received").execute();
}

/** The old table under another name, without the identity (and its sequence) or the index names the new one takes. */
async function setAside(db: Kysely<unknown>): Promise<void> {
  await sql`alter table log_chunks alter column id drop identity`.execute(db);
  await sql`alter table log_chunks rename to log_chunks_unpartitioned`.execute(db);
  await sql`alter table log_chunks_unpartitioned rename constraint log_chunks_pkey to log_chunks_unpartitioned_pkey`.execute(db);
  await db.schema.dropIndex("log_chunks_by_part").execute();
  await db.schema.dropIndex("log_chunks_by_received").execute();
}

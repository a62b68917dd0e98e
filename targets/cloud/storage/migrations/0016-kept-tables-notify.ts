// On PostgreSQL, a write to a table whose reads svc-cloud keeps between calls (the keys and people
// every call is checked against, auth/resolve-principal.ts) tells every replica which table, from
// the database itself: a statement trigger sends a notice on the replicas' channel
// (fleet/postgres-channel.ts), delivered when the writing transaction commits and never if it
// rolls back, whoever wrote (a replica, the command line, a restore). A replica listening then
// reads that table afresh (fleet/foreign-writes.ts). SQLite has one process, which sees its own
// writes: nothing is made. The fragments of merged configs are not kept this way: a config read
// in the moment between an edit's commit and its notice would pair the new revision with the old
// merge; partless-configs.ts checks their revisions at every use instead.
import { sql, type Kysely } from "kysely";
import { isPostgres } from "../store-dialect.js";

/** The tables whose reads are kept between calls. */
const KEPT = ["api_keys", "users"];

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  // A message of one piece on channel svc_cloud, topic `tables`: "<id> 0 1 tables\n<table>".
  await sql`
    create function svc_cloud_kept_table_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('svc_cloud', 'db.' || txid_current()::text || '.' || tg_table_name || ' 0 1 tables' || chr(10) || tg_table_name);
      return null;
    end
    $$`.execute(db);
  for (const table of KEPT) {
    await sql`create trigger ${sql.id(`${table}_kept_changed`)} after insert or update or delete or truncate on ${sql.id(table)} for each statement execute function svc_cloud_kept_table_changed()`.execute(db);
  }
}

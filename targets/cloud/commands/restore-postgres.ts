// `svc-cloud restore FILE --database URL`: puts a backup made by `svc-cloud backup` (pg_dump's
// custom format) in place of the database's contents. FILE is checked first, without touching the
// database: it must be such an archive, of a svc-cloud store, no newer than this svc-cloud. The
// database is then claimed alone (refused while any svc-cloud serves it), what it holds is kept
// beside the data folder's other files as a dump of its own (`svc-cloud.before-restore-TIME.dump`),
// its tables are dropped and the archive restored by `pg_restore --clean --if-exists` in one
// transaction, and the result brought to the current schema. Should pg_restore fail, the kept dump
// is restored the same way, so the database is left as it was.
import { sql, type Kysely } from "kysely";
import { join } from "node:path";
import { Code, SvcError } from "../../../core/index.js";
import { migrations } from "../storage/migrations/index.js";
import { openStore } from "../storage/open-store.js";
import { claimDatabase } from "../storage/postgres-serve-lock.js";
import { runPostgresTool } from "../storage/postgres-tools.js";
import type { Tables } from "../storage/tables.js";

export interface PostgresRestore {
  dataDir: string;
  database: string;
  /** The archive, resolved. */
  source: string;
  /** Names the kept dump. */
  stamp: string;
}

export async function restorePostgres(options: PostgresRestore): Promise<{ kept: string }> {
  await checkArchive(options.source);
  const release = await claimDatabase(options.database, "restore");
  try {
    const store = await openStore(options.dataDir, options.database);
    const kept = join(options.dataDir, `svc-cloud.before-restore-${options.stamp}.dump`);
    try {
      await store.backup(kept);
      await dropTables(store.db);
    } finally {
      await store.close();
    }
    try {
      await pgRestore(options.source, options.database);
    } catch (thrown) {
      await pgRestore(kept, options.database);
      throw thrown;
    }
    await (await openStore(options.dataDir, options.database)).close();
    return { kept };
  } finally {
    await release();
  }
}

function pgRestore(file: string, database: string): Promise<string> {
  return runPostgresTool("pg_restore", ["--clean", "--if-exists", "--no-owner", "--no-privileges", "--single-transaction", "--exit-on-error", file], { url: database });
}

/**
 * Every table of the store's schema, dropped in one transaction: `--clean` drops only what the
 * archive holds, and a table a newer migration made would otherwise stay and stop that migration
 * from running again on the restored data.
 */
async function dropTables(db: Kysely<Tables>): Promise<void> {
  await db.transaction().execute(async (tx) => {
    const { rows } = await sql<{ name: string }>`select tablename as name from pg_tables where schemaname = current_schema()`.execute(tx);
    for (const { name } of rows) await sql`drop table if exists ${sql.id(name)} cascade`.execute(tx);
  });
}

/** Throws unless `file` is pg_dump's archive of a svc-cloud store whose migrations this svc-cloud knows. */
async function checkArchive(file: string): Promise<void> {
  const notStore = (why: string) => new SvcError(Code.InvalidArgument, `${file} is not a svc-cloud backup of a PostgreSQL store: ${why}; nothing was changed`);
  try {
    await runPostgresTool("pg_restore", ["--list", file]);
  } catch (thrown) {
    if (thrown instanceof SvcError && thrown.code === Code.FailedPrecondition) throw thrown;
    throw notStore("pg_restore cannot read it");
  }
  const data = await runPostgresTool("pg_restore", ["--data-only", "--table=kysely_migration", "--file=-", file]);
  const applied = migrationNames(data);
  if (!applied.includes("0001-core")) throw notStore("it has no svc-cloud migrations");
  const unknown = applied.filter((name) => !(name in migrations));
  if (unknown.length > 0) throw new SvcError(Code.FailedPrecondition, `${file} was made by a newer svc-cloud (migrations ${unknown.join(", ")}): restore it with that version`);
}

/** The names in the archive's copy of kysely_migration (the first column of its COPY block). */
function migrationNames(script: string): string[] {
  const lines = script.split("\n");
  const start = lines.findIndex((line) => /^COPY \S*kysely_migration /.test(line));
  if (start < 0) return [];
  const names: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line === "\\.") break;
    names.push(line.split("\t")[0]!);
  }
  return names;
}

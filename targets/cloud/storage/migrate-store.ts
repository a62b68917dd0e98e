// Brings a store to the newest schema with the versioned migrations (migrations/index.ts), the same
// files on SQLite and PostgreSQL. On SQLite several processes opening one file take turns through
// SQLite's own write lock. On PostgreSQL several svc-cloud replicas may start at once: the whole
// migration runs on one connection holding a session-level advisory lock, from kysely's first look
// at its bookkeeping tables to the last migration. kysely's own lock is taken only once those tables
// exist, and two sessions creating the same table at once can fail on PostgreSQL even with
// `if not exists`; holding one lock from the start makes a second replica wait and then find
// everything done. A session lock (rather than a transaction's) because kysely makes its tables
// outside its migration transaction; it is released when the migration ends or, should the process
// die, with its connection.
import { Migrator, sql, type Kysely, type MigrationProvider, type MigrationResultSet } from "kysely";
import { Code, errorMessage, SvcError } from "../../../core/index.js";
import { migrations } from "./migrations/index.js";
import { LOCK_CLASS, MIGRATING } from "./postgres-locks.js";
import { isPostgres } from "./store-dialect.js";
import type { Store } from "./store.js";
import type { TableVersions } from "./table-versions.js";
import type { Tables } from "./tables.js";

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateStore(db: Kysely<Tables>): Promise<void> {
  const { error, results } = isPostgres(db) ? await db.connection().execute(migrateHoldingLock) : await migrateToLatest(db);
  if (error === undefined) return;
  const failed = results?.find((r) => r.status === "Error")?.migrationName ?? "unknown";
  throw new SvcError(Code.FailedPrecondition, `svc-cloud: the storage could not be migrated (${failed}): ${errorMessage(error)}`, error);
}

function migrateToLatest(db: Kysely<Tables>): Promise<MigrationResultSet> {
  return new Migrator({ db, provider }).migrateToLatest();
}

async function migrateHoldingLock(connection: Kysely<Tables>): Promise<MigrationResultSet> {
  await sql`select pg_advisory_lock(${sql.lit(LOCK_CLASS)}, ${sql.lit(MIGRATING)})`.execute(connection);
  try {
    return await migrateToLatest(connection);
  } finally {
    await sql`select pg_advisory_unlock(${sql.lit(LOCK_CLASS)}, ${sql.lit(MIGRATING)})`.execute(connection);
  }
}

/** The store over `db` once migrated; `db` is destroyed when the migration fails. */
export async function migratedStore(db: Kysely<Tables>, versions: TableVersions, backup: Store["backup"]): Promise<Store> {
  try {
    await migrateStore(db);
  } catch (thrown) {
    await db.destroy();
    throw thrown;
  }
  return { kind: isPostgres(db) ? "postgres" : "sqlite", db, versions, backup, close: () => db.destroy() };
}

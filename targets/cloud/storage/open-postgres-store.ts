// The store in a PostgreSQL database (`--database postgres://...`), through the same query layer and
// migrations as SQLite. Several svc-cloud replicas may share the database, each with a pool of its
// own; what SQLite did by having one writer at a time is done here by locks (write-locks.ts) and
// by migrating under an advisory lock (migrate-store.ts).
//
// Statements: `pg` sends each query as an unnamed prepared statement, parsed and planned by the
// server every time. Named ones would be kept per connection, and a replica still running the old
// version while another migrates would then find a `select *` it prepared before failing ("cached
// plan must not change result type"); kysely's own work of building a query is kept once anyway
// (prepared-query.ts), on both databases.
import { Kysely } from "kysely";
import pg from "pg";
import { migratedStore } from "./migrate-store.js";
import { PostgresStoreDialect } from "./postgres-store-dialect.js";
import { runPostgresTool } from "./postgres-tools.js";
import { storeTypes } from "./postgres-types.js";
import type { Store } from "./store.js";
import { createTableVersions } from "./table-versions.js";
import type { Tables } from "./tables.js";

/** Connections each process keeps to the database at most. */
const POOL_SIZE = 10;

/** Opens the store in the database at `url` and migrates it. */
export async function openPostgresStore(url: string): Promise<Store> {
  const pool = new pg.Pool({ connectionString: url, types: storeTypes, max: POOL_SIZE });
  // An idle connection the server ends (a restart, an administrator) is an 'error' event on the
  // pool, which would otherwise end the process; the pool drops it and the next query takes a new one.
  pool.on("error", () => undefined);
  // No sign reaches this process when another writes, so kept reads are never answered again.
  const versions = createTableVersions();
  const db = new Kysely<Tables>({ dialect: new PostgresStoreDialect({ pool }), plugins: [versions.plugin] });
  // pg_dump's custom format: compressed, and what pg_restore reads back (restore-postgres.ts).
  return migratedStore(db, versions, async (file) => {
    await runPostgresTool("pg_dump", ["--format=custom", `--file=${file}`], { url });
  });
}

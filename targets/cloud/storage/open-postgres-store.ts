// The store in a PostgreSQL database (`--database postgres://...`), through the same query layer and
// migrations as SQLite. Several svc-cloud replicas may share the database, each with a pool of its
// own; what SQLite did by having one writer at a time is done here by locks (write-locks.ts) and
// by migrating under an advisory lock (migrate-store.ts).
//
// Statements: the prepared queries' statements are named, so each connection has them parsed and
// planned once (named-statements.ts, which also says what happens when another replica migrates
// under them); every other statement is sent unnamed, parsed and planned by the server every time.
// kysely's own work of building a query is kept once anyway (prepared-query.ts), on both databases.
import { Kysely } from "kysely";
import pg from "pg";
import { migratedStore } from "./migrate-store.js";
import { NamingClient } from "./named-statements.js";
import { PostgresStoreDialect } from "./postgres-store-dialect.js";
import { runPostgresTool } from "./postgres-tools.js";
import { storeTypes } from "./postgres-types.js";
import type { Store } from "./store.js";
import { createTableVersions } from "./table-versions.js";
import type { Tables } from "./tables.js";

/** The tables whose writes the database's triggers tell every replica of (migrations/0016-kept-tables-notify.ts). */
export const HEARD_TABLES: ReadonlySet<string> = new Set(["api_keys", "users"]);

/** Connections each process keeps to the database at most. */
const POOL_SIZE = 10;

/** How long a call waits for a new connection before failing as unavailable (a server not answering). */
const CONNECT_TIMEOUT_MS = 10_000;

/** Opens the store in the database at `url` and migrates it. */
export async function openPostgresStore(url: string): Promise<Store> {
  // TCP keepalive: a server gone without a word (a network cut) ends its connections in time.
  const pool = new pg.Pool({ connectionString: url, types: storeTypes, max: POOL_SIZE, Client: NamingClient, keepAlive: true, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // An idle connection the server ends (a restart, an administrator) is an 'error' event on the
  // pool, which would otherwise end the process; the pool drops it and the next query takes a new one.
  pool.on("error", () => undefined);
  // Until the service hears other processes' writes (fleet/foreign-writes.ts), each stamp takes
  // every table as changed: a kept read is never answered again, and nothing answered is stale.
  let foreign: () => unknown = () => ({});
  const versions = createTableVersions(() => foreign(), HEARD_TABLES);
  const db = new Kysely<Tables>({ dialect: new PostgresStoreDialect({ pool }), plugins: [versions.plugin] });
  // pg_dump's custom format: compressed, and what pg_restore reads back (restore-postgres.ts).
  const store = await migratedStore(db, versions, async (file) => {
    await runPostgresTool("pg_dump", ["--format=custom", `--file=${file}`], { url });
  });
  return { ...store, hearForeignWrites: (version) => (foreign = version) };
}

// Opens svc-cloud's storage: the SQLite file in the data folder, brought to the newest schema by
// the versioned migrations before anything else reads it. Several processes may open the same
// folder at once (the running service and `svc-cloud machine create`), so the file is in WAL
// mode and a writer waits for another instead of failing at once.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { Kysely, Migrator, type MigrationProvider, type SqliteDatabase, type SqliteStatement } from "kysely";
import { SvcError, Code } from "../../../core/index.js";
import { ImmediateSqliteDialect } from "./immediate-sqlite-dialect.js";
import { migrations } from "./migrations/index.js";
import { createTableVersions, type TableVersions } from "./table-versions.js";
import type { Tables } from "./tables.js";

export interface Store {
  readonly db: Kysely<Tables>;
  /** Whether tables may have changed since a read: for reads kept between calls. */
  readonly versions: TableVersions;
  /** Writes a consistent copy of the whole store to `file` while it is in use. */
  backup(file: string): Promise<void>;
  close(): Promise<void>;
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** The file svc-cloud keeps its state in, inside the data folder. */
export function storeFile(dataDir: string): string {
  return join(dataDir, "svc-cloud.db");
}

/** Opens (creating if need be) the store of `dataDir` and migrates it. */
export async function openStore(dataDir: string): Promise<Store> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  return openStoreFile(storeFile(dataDir));
}

/** Opens the store in `file` and migrates it (a backup being restored is checked this way). */
export async function openStoreFile(file: string): Promise<Store> {
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("synchronous = NORMAL");
  const dataVersion = sqlite.prepare("pragma data_version").pluck();
  const versions = createTableVersions(() => dataVersion.get());
  const db = new Kysely<Tables>({ dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) }), plugins: [versions.plugin] });
  try {
    await migrate(db);
  } catch (thrown) {
    await db.destroy();
    throw thrown;
  }
  return {
    db,
    versions,
    backup: async (file) => {
      await sqlite.backup(file);
    },
    close: () => db.destroy(),
  };
}

/**
 * The database as kysely sees it, preparing each distinct SQL text once: kysely prepares every
 * query it runs, and preparing was a tenth of a served call's cost. Queries are built with bound
 * values, so the distinct texts are few; the cache is bounded all the same.
 */
function withStatementCache(sqlite: Database.Database): SqliteDatabase {
  const prepared = new Map<string, Database.Statement>();
  return {
    close: () => sqlite.close(),
    prepare: (text: string) => {
      let statement = prepared.get(text);
      if (statement === undefined) {
        if (prepared.size >= 500) prepared.clear();
        statement = sqlite.prepare(text);
        prepared.set(text, statement);
      }
      return statement as unknown as SqliteStatement;
    },
  };
}

async function migrate(db: Kysely<Tables>): Promise<void> {
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  if (error === undefined) return;
  const failed = results?.find((r) => r.status === "Error")?.migrationName ?? "unknown";
  throw new SvcError(Code.FailedPrecondition, `svc-cloud: the storage could not be migrated (${failed}): ${String((error as Error).message ?? error)}`, error);
}

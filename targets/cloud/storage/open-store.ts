// Opens svc-cloud's storage: the SQLite file in the data folder, brought to the newest schema by
// the versioned migrations before anything else reads it. Several processes may open the same
// folder at once (the running service and `svc-cloud machine create`), so the file is in WAL
// mode and a writer waits for another instead of failing at once.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { Kysely, Migrator, SqliteDialect, type MigrationProvider } from "kysely";
import { SvcError, Code } from "../../../core/index.js";
import { migrations } from "./migrations/index.js";
import type { Tables } from "./tables.js";

export interface Store {
  readonly db: Kysely<Tables>;
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
  const sqlite = new Database(storeFile(dataDir));
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("synchronous = NORMAL");
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: sqlite }) });
  await migrate(db);
  return {
    db,
    backup: async (file) => {
      await sqlite.backup(file);
    },
    close: () => db.destroy(),
  };
}

async function migrate(db: Kysely<Tables>): Promise<void> {
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  if (error === undefined) return;
  const failed = results?.find((r) => r.status === "Error")?.migrationName ?? "unknown";
  throw new SvcError(Code.FailedPrecondition, `svc-cloud: the storage could not be migrated (${failed}): ${String((error as Error).message ?? error)}`, error);
}

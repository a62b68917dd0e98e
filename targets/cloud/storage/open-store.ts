// Opens svc-cloud's storage, brought to the newest schema by the versioned migrations before
// anything else reads it: the SQLite file in the data folder by default, or a PostgreSQL database
// when `--database` names one (files too: see file-store-of.ts).
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { openPostgresStore } from "./open-postgres-store.js";
import { openSqliteStore } from "./open-sqlite-store.js";
import type { Store } from "./store.js";

export type { Store } from "./store.js";

/** The file svc-cloud keeps its state in, inside the data folder, when no database is named. */
export function storeFile(dataDir: string): string {
  return join(dataDir, "svc-cloud.db");
}

/** Opens (creating if need be) the store of `dataDir`, or the PostgreSQL at `database`, and migrates it. */
export async function openStore(dataDir: string, database?: string): Promise<Store> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  return database === undefined ? openSqliteStore(storeFile(dataDir)) : openPostgresStore(database);
}

/** Opens the SQLite store in `file` and migrates it (a backup being restored is checked this way). */
export function openStoreFile(file: string): Promise<Store> {
  return openSqliteStore(file);
}

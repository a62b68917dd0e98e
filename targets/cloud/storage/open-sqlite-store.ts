// The store in one SQLite file. Several processes may open the same file at once (the running
// service and `svc-cloud machine create`), so the file is in WAL mode and a writer waits for another
// instead of failing at once; SQLite's `data_version` tells kept reads when another process wrote.
import Database from "better-sqlite3";
import { Kysely, type SqliteDatabase, type SqliteStatement } from "kysely";
import { ImmediateSqliteDialect } from "./immediate-sqlite-dialect.js";
import { migratedStore } from "./migrate-store.js";
import type { Store } from "./store.js";
import { createTableVersions } from "./table-versions.js";
import type { Tables } from "./tables.js";

/** Opens the store in `file` (made when missing) and migrates it. */
export async function openSqliteStore(file: string): Promise<Store> {
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("synchronous = NORMAL");
  const dataVersion = sqlite.prepare("pragma data_version").pluck();
  const versions = createTableVersions(() => dataVersion.get());
  const db = new Kysely<Tables>({ dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) }), plugins: [versions.plugin] });
  return migratedStore(db, versions, async (target) => {
    await sqlite.backup(target);
  });
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

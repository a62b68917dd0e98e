// Which file store goes with a store: the data folder beside SQLite, where one svc-cloud serves its
// folder; the database itself with PostgreSQL, where replicas with folders of their own serve one
// database and each must serve every file.
import { createDatabaseFileStore } from "./file-store-database.js";
import { createFolderFileStore } from "./file-store-folder.js";
import type { FileStore } from "./file-store.js";
import type { Store } from "./store.js";

/** The file store of `store`, with `dataDir` its data folder. */
export function fileStoreOf(store: Store, dataDir: string): FileStore {
  return store.kind === "postgres" ? createDatabaseFileStore(store.db, dataDir) : createFolderFileStore(dataDir);
}

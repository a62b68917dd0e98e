// The two databases svc-cloud's store runs on, for a suite that runs every case on both: SQLite in a
// temporary data folder, and a real PostgreSQL (test/helpers/postgres-server.ts, started once per
// test file) with a new database for each store. `storeBackends()` is called at a test file's top
// level: it starts and stops the server around the file, closes every store a test opened after
// it, and removes what it made.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll } from "vitest";
import { openStore, type Store } from "../../targets/cloud/storage/open-store.js";
import { startPostgresServer, type PostgresServer } from "./postgres-server.js";

/** Where a store is: its data folder and, on PostgreSQL, its database. */
export interface StorePlace {
  readonly dataDir: string;
  readonly database?: string;
}

export interface StoreBackend {
  readonly name: "sqlite" | "postgres";
  /** A new, empty place. */
  place(): Promise<StorePlace>;
  /** Opens (and so migrates) the store at `place`, a new place when none is given; closed after the test. */
  open(place?: StorePlace): Promise<Store>;
  /** Where `store` is. */
  placeOf(store: Store): StorePlace;
  /**
   * A second writer on `store`'s database, as another replica would be: another store (its own
   * pool) on PostgreSQL. On SQLite it is the same store: two connections in one process would
   * block its one thread while one waits for SQLite's write lock, and within a process kysely
   * already puts writers in turn.
   */
  peer(store: Store): Promise<Store>;
}

export function storeBackends(): StoreBackend[] {
  let server: PostgresServer | undefined;
  const folders: string[] = [];
  const opened: Store[] = [];
  const places = new WeakMap<Store, StorePlace>();

  beforeAll(async () => {
    server = await startPostgresServer();
  });
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
  });
  afterAll(async () => {
    for (const store of opened.splice(0)) await store.close();
    await server?.stop();
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-store-"));
    folders.push(dir);
    return dir;
  };
  const running = () => {
    if (server === undefined) throw new Error("the test PostgreSQL is not running (storeBackends() belongs at a test file's top level)");
    return server;
  };

  const backend = (name: StoreBackend["name"], place: () => Promise<StorePlace>): StoreBackend => {
    const self: StoreBackend = {
      name,
      place,
      async open(at) {
        const where = at ?? (await place());
        const store = await openStore(where.dataDir, where.database);
        opened.push(store);
        places.set(store, where);
        return store;
      },
      placeOf: (store) => places.get(store)!,
      peer: async (store) => (name === "sqlite" ? store : self.open(self.placeOf(store))),
    };
    return self;
  };
  return [
    backend("sqlite", async () => ({ dataDir: folder() })),
    backend("postgres", async () => ({ dataDir: folder(), database: await running().createDatabase() })),
  ];
}

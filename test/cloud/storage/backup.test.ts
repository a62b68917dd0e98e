// A store's backup and its restore, on SQLite and PostgreSQL alike: the backup is a consistent copy
// made while the store is open (SQLite's online backup; pg_dump's custom format), and restoring it
// puts exactly that back, keeping what it replaced. A restore is refused while a svc-cloud serves
// the store, and a backup of the other kind of store is refused by name, changing nothing.
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Code, SvcError } from "../../../core/index.js";
import { restoreCommand } from "../../../targets/cloud/commands/restore.js";
import { openStore } from "../../../targets/cloud/storage/open-store.js";
import { claimDatabase } from "../../../targets/cloud/storage/postgres-serve-lock.js";
import { claimServeLock } from "../../../targets/cloud/storage/serve-lock.js";
import { readSetting, writeSetting } from "../../../targets/cloud/storage/settings.js";
import { insertLogChunk, countLogs } from "../../../targets/cloud/storage/logs-store.js";
import { SEED_TIME, seedOrganization } from "../../helpers/store-seed.js";
import { storeBackends, type StorePlace } from "../../helpers/store-backends.js";

const backends = storeBackends();
const codeOf = (promise: Promise<unknown>) => promise.then(() => "ok", (thrown: unknown) => (thrown instanceof SvcError ? thrown.code : String(thrown)));
const restore = (place: StorePlace, file: string) => restoreCommand(place.dataDir, file, SEED_TIME, place.database);

/** A svc-cloud serving `place`, as far as a restore can tell. */
async function serving(place: StorePlace): Promise<() => Promise<void>> {
  const releaseFolder = claimServeLock(place.dataDir);
  const releaseDatabase = place.database === undefined ? async () => {} : await claimDatabase(place.database, "serve");
  return async () => {
    await releaseDatabase();
    releaseFolder();
  };
}

describe.each(backends)("backup and restore on $name", (backend) => {
  it("put back exactly what the backup held, keeping the store it replaced", async () => {
    const place = await backend.place();
    const store = await backend.open(place);
    const org = await seedOrganization(store.db);
    await org.machine("rover");
    await writeSetting(store.db, "colour", "red");
    await insertLogChunk(store.db, "p", SEED_TIME, [{ time: SEED_TIME, level: 1, bytes: Uint8Array.of(0, 1, 2) }]);
    const file = join(place.dataDir, "backup.bin");
    await store.backup(file);
    await writeSetting(store.db, "colour", "blue");
    await org.machine("later");
    await store.close();

    const { kept } = await restore(place, file);
    expect(kept !== undefined && existsSync(kept)).toBe(true);
    const restored = await backend.open(place);
    expect(await readSetting(restored.db, "colour")).toBe("red");
    expect((await restored.db.selectFrom("machines").select("name").execute()).map((m) => m.name)).toEqual(["rover"]);
    expect(await countLogs(restored.db, "p")).toBe(1);
  });

  it("refuse a restore while a svc-cloud serves the store, and a server while the store is being restored", async () => {
    const place = await backend.place();
    const store = await backend.open(place);
    const file = join(place.dataDir, "backup.bin");
    await store.backup(file);
    await store.close();
    const release = await serving(place);
    try {
      expect(await codeOf(restore(place, file))).toBe(Code.FailedPrecondition);
    } finally {
      await release();
    }
    if (place.database !== undefined) {
      const restoring = await claimDatabase(place.database, "restore");
      try {
        expect(await codeOf(claimDatabase(place.database, "serve"))).toBe(Code.FailedPrecondition);
      } finally {
        await restoring();
      }
    }
    expect(await codeOf(restore(place, file))).toBe("ok");
  });

  it("refuse a file that is no backup, and a backup of the other kind of store, by name", async () => {
    const place = await backend.place();
    const other = backends.find((b) => b.name !== backend.name)!;
    const otherPlace = await other.place();
    const otherStore = await other.open(otherPlace);
    const otherFile = join(otherPlace.dataDir, "other.bin");
    await otherStore.backup(otherFile);
    const store = await backend.open(place);
    await writeSetting(store.db, "colour", "kept");
    await store.close();
    const junk = join(place.dataDir, "junk.bin");
    writeFileSync(junk, "not a backup at all");
    await expect(restore(place, otherFile)).rejects.toThrow(backend.name === "sqlite" ? /backup of a PostgreSQL store: restore it with --database/ : /backup of a SQLite store: restore it without --database/);
    expect(await codeOf(restore(place, junk))).toBe(Code.InvalidArgument);
    const after = await openStore(place.dataDir, place.database);
    try {
      expect(await readSetting(after.db, "colour")).toBe("kept");
    } finally {
      await after.close();
    }
  });
});

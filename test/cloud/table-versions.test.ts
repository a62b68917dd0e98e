// Reads kept between calls (a caller's key, the fragments a Config merged) are answered again only
// while nothing may have changed what they read: a revoked key is refused on the very next call,
// whether svc-cloud revoked it or another process on the same folder (the command line) did, and
// a transaction's uncommitted rows are never kept. Writes to other tables (the logs, all day long)
// leave them standing.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SvcError } from "../../core/index.js";
import { resolvePrincipal } from "../../targets/cloud/auth/resolve-principal.js";
import { keySubject } from "../../targets/cloud/auth/principal.js";
import { initialise, type InitResult } from "../../targets/cloud/commands/init.js";
import { createApiKey, revokeApiKey } from "../../targets/cloud/storage/api-keys.js";
import { keptReads } from "../../targets/cloud/storage/kept-reads.js";
import { insertLogChunk } from "../../targets/cloud/storage/logs-store.js";
import { openStore, type Store } from "../../targets/cloud/storage/open-store.js";
import { writeSetting } from "../../targets/cloud/storage/settings.js";

let dir: string;
let store: Store;
let init: InitResult;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "svc-kept-"));
  store = await openStore(dir);
  init = await initialise(store, { now: Date.now() });
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const newKey = () => createApiKey(store.db, { organizationId: init.organization_id, name: "k", scope: "organization", scopeId: init.organization_id, now: Date.now() });
const refusal = (promise: Promise<unknown>) => promise.then(() => "admitted", (thrown: unknown) => (thrown instanceof SvcError ? thrown.message : String(thrown)));

describe("a caller's key, kept between calls", () => {
  it("is refused on the next call once svc-cloud revokes it", async () => {
    const key = await newKey();
    expect((await resolvePrincipal(store, keySubject(key.id))).kind).toBe("organization-key");
    expect((await resolvePrincipal(store, keySubject(key.id))).kind).toBe("organization-key");
    await revokeApiKey(store.db, key.id, Date.now());
    expect(await refusal(resolvePrincipal(store, keySubject(key.id)))).toMatch(/revoked/);
  });

  it("is refused on the next call once another process on the same folder revokes it", async () => {
    const key = await newKey();
    expect((await resolvePrincipal(store, keySubject(key.id))).kind).toBe("organization-key");
    const other = await openStore(dir);
    try {
      await revokeApiKey(other.db, key.id, Date.now());
    } finally {
      await other.close();
    }
    expect(await refusal(resolvePrincipal(store, keySubject(key.id)))).toMatch(/revoked/);
  });

  it("is refused after raw SQL changed it", async () => {
    const key = await newKey();
    expect((await resolvePrincipal(store, keySubject(key.id))).kind).toBe("organization-key");
    await sql`update api_keys set revoked_at = 1 where id = ${key.id}`.execute(store.db);
    expect(await refusal(resolvePrincipal(store, keySubject(key.id)))).toMatch(/revoked/);
  });

  it("is admitted once made, though its absence was read before", async () => {
    const made = await newKey();
    const id = made.id;
    await sql`delete from api_keys where id = ${id}`.execute(store.db);
    expect(await refusal(resolvePrincipal(store, keySubject(id)))).toMatch(/revoked/);
    await store.db.insertInto("api_keys").values({ id, organization_id: init.organization_id, name: "again", key_hash: "x", scope: "organization", scope_id: init.organization_id, created_at: 1, revoked_at: null }).execute();
    expect((await resolvePrincipal(store, keySubject(id))).kind).toBe("organization-key");
  });
});

describe("table versions", () => {
  it("stand while other tables are written (the logs, settings)", async () => {
    const before = store.versions.stamp(["api_keys"]);
    await insertLogChunk(store.db, "some-part", Date.now(), [{ time: Date.now(), level: 1, bytes: new Uint8Array([10, 1, 120]) }]);
    await writeSetting(store.db, "kept-reads-test", "1");
    expect(store.versions.stamp(["api_keys"])).toBe(before);
    expect(store.versions.stamp(["log_chunks"])).not.toBe(before);
  });

  it("move for a write to the table, by this process or another", async () => {
    const first = store.versions.stamp(["api_keys"]);
    await newKey();
    const second = store.versions.stamp(["api_keys"]);
    expect(second).not.toBe(first);
    const other = await openStore(dir);
    try {
      await writeSetting(other.db, "from-elsewhere", "1");
    } finally {
      await other.close();
    }
    expect(store.versions.stamp(["api_keys"])).not.toBe(second);
  });
});

describe("a kept read", () => {
  const counted = keptReads<number>(["settings"]);
  let loads = 0;
  const load = async () => ++loads;

  it("is read again only when its tables changed", async () => {
    const first = await counted.read(store, "a", load);
    expect(await counted.read(store, "a", load)).toBe(first);
    await writeSetting(store.db, "kept", String(first));
    expect(await counted.read(store, "a", load)).toBe(first + 1);
  });

  it("is never kept nor answered inside a transaction, whose rows may yet be rolled back", async () => {
    const outside = await counted.read(store, "b", load);
    const inside = await store.db
      .transaction()
      .execute(async (tx) => {
        const seen = await counted.read({ db: tx, versions: store.versions }, "b", load);
        throw new Error(`rolled back after reading ${seen}`);
      })
      .catch((thrown: Error) => thrown.message);
    expect(inside).toBe(`rolled back after reading ${outside + 1}`);
    expect(await counted.read(store, "b", load)).toBe(outside);
  });
});

// API keys at the store level, on SQLite and PostgreSQL alike: an organisation's, a part's and a
// provisioning key (its location and fragment) are made with only a hash of the secret kept,
// listed while live, and revoked once, however many revoke it at once.
import { describe, expect, it } from "vitest";
import { createApiKey, findApiKey, listApiKeys, provisioningKeysOf, revokeApiKey } from "../../../targets/cloud/storage/api-keys.js";
import { hashKey, keyMatches } from "../../../targets/cloud/storage/secrets.js";
import { SEED_TIME, seedOrganization } from "../../helpers/store-seed.js";
import { storeBackends } from "../../helpers/store-backends.js";

const backends = storeBackends();

describe.each(backends)("API keys on $name", (backend) => {
  it("keep only the hash of a key's secret, and list the live ones oldest first", async () => {
    const store = await backend.open();
    const org = await seedOrganization(store.db);
    const first = await createApiKey(store.db, { organizationId: org.organizationId, name: "ci", scope: "organization", scopeId: org.organizationId, now: SEED_TIME });
    const second = await createApiKey(store.db, { organizationId: org.organizationId, name: "ops", scope: "organization", scopeId: org.organizationId, now: SEED_TIME + 1 });
    const row = await findApiKey(store.db, first.id);
    expect(row).toEqual({ id: first.id, organization_id: org.organizationId, name: "ci", key_hash: hashKey(first.key), scope: "organization", scope_id: org.organizationId, created_at: SEED_TIME, revoked_at: null, fragment_id: null });
    expect(keyMatches(first.key, row!.key_hash)).toBe(true);
    expect(JSON.stringify(await store.db.selectFrom("api_keys").selectAll().execute())).not.toContain(first.key);
    expect((await listApiKeys(store.db, org.organizationId)).map((k) => k.name)).toEqual(["ci", "ops"]);
    expect(await revokeApiKey(store.db, second.id, SEED_TIME + 2)).toBe(true);
    expect((await listApiKeys(store.db, org.organizationId)).map((k) => k.name)).toEqual(["ci"]);
    expect(await findApiKey(store.db, "no-such-key")).toBeUndefined();
  });

  it("revoke a key once, however many revoke it at once", async () => {
    const store = await backend.open();
    const peer = await backend.peer(store);
    const org = await seedOrganization(store.db);
    const key = await createApiKey(store.db, { organizationId: org.organizationId, name: "k", scope: "organization", scopeId: org.organizationId, now: SEED_TIME });
    const revoked = await Promise.all([store, peer, store, peer].map((s, i) => revokeApiKey(s.db, key.id, SEED_TIME + 10 + i)));
    expect(revoked.filter(Boolean)).toHaveLength(1);
    expect((await findApiKey(store.db, key.id))?.revoked_at).toBeGreaterThanOrEqual(SEED_TIME + 10);
  });

  it("name a provisioning key's location and fragment, and find the live ones by fragment", async () => {
    const store = await backend.open();
    const org = await seedOrganization(store.db);
    const make = (name: string, fragmentId: string, now: number) => createApiKey(store.db, { organizationId: org.organizationId, name, scope: "provisioning", scopeId: org.locationId, fragmentId, now });
    const phone = await make("phone", "frag-1", SEED_TIME);
    const tablet = await make("tablet", "frag-1", SEED_TIME + 1);
    await make("other", "frag-2", SEED_TIME);
    expect(await findApiKey(store.db, phone.id)).toMatchObject({ scope: "provisioning", scope_id: org.locationId, fragment_id: "frag-1" });
    expect((await provisioningKeysOf(store.db, org.organizationId, "frag-1")).map((k) => k.name)).toEqual(["phone", "tablet"]);
    await revokeApiKey(store.db, tablet.id, SEED_TIME + 5);
    expect((await provisioningKeysOf(store.db, org.organizationId, "frag-1")).map((k) => k.name)).toEqual(["phone"]);
    expect(await provisioningKeysOf(store.db, "another-organization", "frag-1")).toEqual([]);
  });
});

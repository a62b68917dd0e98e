// A part's config history and fragments at the store level, on SQLite and PostgreSQL alike: each
// save appends a revision, never rewriting one; an edit based on an older version is refused as a
// conflict; several writers saving at once each get a revision of their own, none lost; a batch
// (a fragment's change) moves every part on by one; and history reads newest first within a budget.
import type { Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import { Code, SvcError } from "../../../core/index.js";
import { appendFragmentRevision, findFragment, fragmentRevision, fragmentRevisions, insertFragment, listFragments, removeFragment } from "../../../targets/cloud/storage/fragments-store.js";
import { findRevision, recentRevisions } from "../../../targets/cloud/storage/part-history.js";
import { appendRevisions, currentRevision, saveRevision } from "../../../targets/cloud/storage/revisions.js";
import type { Tables } from "../../../targets/cloud/storage/tables.js";
import { lockOrganization } from "../../../targets/cloud/storage/write-locks.js";
import { SEED_TIME, seedOrganization } from "../../helpers/store-seed.js";
import { storeBackends } from "../../helpers/store-backends.js";

const backends = storeBackends();
const codeOf = (promise: Promise<unknown>) => promise.then(() => "ok", (thrown: unknown) => (thrown instanceof SvcError ? thrown.code : String(thrown)));

describe.each(backends)("revisions on $name", (backend) => {
  it("appends a revision per save, a millisecond apart at least, and reads history newest first", async () => {
    const store = await backend.open();
    const org = await seedOrganization(store.db);
    const { partId } = await org.machine("rover");
    const first = await saveRevision(store.db, { partId, config: { n: 1 }, editedBy: "a@example.com", now: SEED_TIME });
    const second = await saveRevision(store.db, { partId, config: { n: 2 }, editedBy: "b@example.com", now: SEED_TIME });
    expect([first, second]).toEqual([
      { partId, revision: 2, time: SEED_TIME + 1 },
      { partId, revision: 3, time: SEED_TIME + 2 },
    ]);
    expect(await currentRevision(store.db, partId)).toEqual({ part_id: partId, revision: 3, config: '{"n":2}', edited_by: "b@example.com", created_at: SEED_TIME + 2 });
    expect((await recentRevisions(store.db, partId, 10, 1_000_000)).map((r) => r.revision)).toEqual([3, 2, 1]);
    expect((await recentRevisions(store.db, partId, 2, 1_000_000)).map((r) => r.revision)).toEqual([3, 2]);
    expect((await recentRevisions(store.db, partId, 10, 1)).map((r) => r.revision)).toEqual([3]);
    expect(await findRevision(store.db, partId, 1)).toMatchObject({ config: "{}", edited_by: "test" });
    expect(await findRevision(store.db, partId, 9)).toBeUndefined();
    expect(await codeOf(saveRevision(store.db, { partId: "none", config: {}, editedBy: "x", now: SEED_TIME }))).toBe(Code.NotFound);
  });

  it("refuses an edit based on an older version, and one its check refuses, saving nothing", async () => {
    const store = await backend.open();
    const org = await seedOrganization(store.db);
    const { partId } = await org.machine("rover");
    const saved = await saveRevision(store.db, { partId, config: { n: 1 }, editedBy: "a", now: SEED_TIME + 10 });
    expect(await codeOf(saveRevision(store.db, { partId, config: { n: 2 }, editedBy: "b", now: SEED_TIME + 20, basedOn: SEED_TIME }))).toBe(Code.Aborted);
    const refused = saveRevision(store.db, { partId, config: { n: 3 }, editedBy: "c", now: SEED_TIME + 20, check: async () => Promise.reject(new SvcError(Code.InvalidArgument, "no")) });
    expect(await codeOf(refused)).toBe(Code.InvalidArgument);
    expect(await saveRevision(store.db, { partId, config: { n: 4 }, editedBy: "d", now: SEED_TIME + 30, basedOn: saved.time })).toMatchObject({ revision: 3 });
  });

  it("gives each of several writers saving at once a revision of its own, losing none", async () => {
    const store = await backend.open();
    const peer = await backend.peer(store);
    const org = await seedOrganization(store.db);
    const { partId } = await org.machine("rover");
    const saves = Array.from({ length: 8 }, (_, i) => saveRevision((i % 2 === 0 ? store : peer).db, { partId, config: { writer: i }, editedBy: `w${i}`, now: SEED_TIME }));
    const saved = await Promise.all(saves);
    expect(saved.map((s) => s.revision).sort((a, b) => a - b)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    const history = await recentRevisions(store.db, partId, 20, 1_000_000);
    expect(history.map((r) => JSON.parse(r.config).writer).filter((w) => w !== undefined).sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(new Set(history.map((r) => r.created_at)).size).toBe(9);
  });

  it("moves many parts on by one revision in a batch, each keeping its own config", async () => {
    const store = await backend.open();
    const org = await seedOrganization(store.db);
    const parts = await Promise.all(["a", "b", "c"].map(async (name) => (await org.machine(name)).partId));
    await saveRevision(store.db, { partId: parts[0]!, config: { edited: true }, editedBy: "x", now: SEED_TIME + 50 });
    const saved = await store.db.transaction().execute(async (tx) => {
      await lockOrganization(tx, { organizationId: org.organizationId });
      return appendRevisions(tx, parts.map((partId, i) => ({ partId, config: { batch: i } })), "fragment", SEED_TIME + 10);
    });
    expect(saved).toEqual([
      { partId: parts[0], revision: 3, time: SEED_TIME + 51 },
      { partId: parts[1], revision: 2, time: SEED_TIME + 10 },
      { partId: parts[2], revision: 2, time: SEED_TIME + 10 },
    ]);
    for (const [i, partId] of parts.entries()) expect(JSON.parse((await currentRevision(store.db, partId)).config)).toEqual({ batch: i });
    const rows = await store.db.selectFrom("parts").select(["id", "revision", "updated_at"]).where("id", "in", parts).orderBy("revision").execute();
    expect(rows.map((r) => [r.revision, r.updated_at])).toEqual([[2, SEED_TIME + 10], [2, SEED_TIME + 10], [3, SEED_TIME + 51]]);
  });
});

describe.each(backends)("fragments on $name", (backend) => {
  const make = (db: Kysely<Tables>, organizationId: string, id: string, name: string) =>
    db.transaction().execute((tx) => insertFragment(tx, { id, organizationId, name, config: { components: [] }, editedBy: "a", now: SEED_TIME }));

  it("keeps every revision of a fragment, the newest on the fragment itself", async () => {
    const store = await backend.open();
    const org = await seedOrganization(store.db);
    await make(store.db, org.organizationId, "f-2", "zeta");
    const made = await make(store.db, org.organizationId, "f-1", "alpha");
    expect(made).toEqual({ id: "f-1", organization_id: org.organizationId, name: "alpha", config: '{"components":[]}', revision: 1, created_at: SEED_TIME, updated_at: SEED_TIME });
    const changed = await store.db.transaction().execute((tx) => appendFragmentRevision(tx, { id: "f-1", name: "beta", config: { n: 2 }, editedBy: "b", now: SEED_TIME }));
    expect(changed).toMatchObject({ name: "beta", revision: 2, updated_at: SEED_TIME + 1 });
    expect(await findFragment(store.db, "f-1")).toEqual({ ...made, name: "beta", config: '{"n":2}', revision: 2, updated_at: SEED_TIME + 1 });
    expect((await fragmentRevisions(store.db, "f-1")).map((r) => [r.revision, r.edited_by])).toEqual([[2, "b"], [1, "a"]]);
    expect(await fragmentRevision(store.db, "f-1", 1)).toMatchObject({ config: '{"components":[]}' });
    expect((await listFragments(store.db, org.organizationId)).map((f) => f.name)).toEqual(["beta", "zeta"]);
    const stale = store.db.transaction().execute((tx) => appendFragmentRevision(tx, { id: "f-1", name: "gamma", config: {}, editedBy: "c", now: SEED_TIME, basedOn: SEED_TIME }));
    expect(await codeOf(stale)).toBe(Code.Aborted);
    expect(await codeOf(store.db.transaction().execute((tx) => appendFragmentRevision(tx, { id: "nope", name: "x", config: {}, editedBy: "c", now: SEED_TIME })))).toBe(Code.NotFound);
    await store.db.transaction().execute((tx) => removeFragment(tx, "f-1"));
    expect(await findFragment(store.db, "f-1")).toBeUndefined();
    expect(await fragmentRevisions(store.db, "f-1")).toEqual([]);
  });
});

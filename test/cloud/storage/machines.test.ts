// Machines and parts at the store level, on SQLite and PostgreSQL alike: a machine is made whole
// (main part, first revision, part key), names are unique where they must be (also when several
// writers race for one), deleting keeps the rows but cuts the machine off, and what a machine's
// calls write (its last contact, a restart request told once) reads back the same.
import type { Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import { Code, SvcError } from "../../../core/index.js";
import { findApiKey } from "../../../targets/cloud/storage/api-keys.js";
import { recentlyAccessed, takeRestartRequest, touchPart, LAST_ACCESS_RESOLUTION_MS } from "../../../targets/cloud/storage/device-store.js";
import { addPart, checkMachineNameFree, currentConfigs, deleteMachine, deletePart, findMachine, findPart, machinesIn, markForRestart, partsOf, renamePart, updateMachine } from "../../../targets/cloud/storage/machines-store.js";
import { createLocation, createMachine } from "../../../targets/cloud/storage/fleet.js";
import type { Tables } from "../../../targets/cloud/storage/tables.js";
import { currentRevision } from "../../../targets/cloud/storage/revisions.js";
import { servedPart } from "../../../targets/cloud/storage/served-part.js";
import { SEED_TIME, seedOrganization } from "../../helpers/store-seed.js";
import { storeBackends } from "../../helpers/store-backends.js";

const backends = storeBackends();
const codeOf = (promise: Promise<unknown>) => promise.then(() => "ok", (thrown: unknown) => (thrown instanceof SvcError ? thrown.code : String(thrown)));

describe.each(backends)("machines and parts on $name", (backend) => {
  it("makes a machine with its main part, an empty first revision and a live part key", async () => {
    const store = await backend.open();
    const org = await seedOrganization(store.db);
    const made = await org.machine("rover", { components: [] });
    expect(await findMachine(store.db, made.machineId)).toMatchObject({ id: made.machineId, name: "rover", location_id: org.locationId, created_at: SEED_TIME, deleted_at: null });
    expect((await machinesIn(store.db, org.locationId)).map((m) => m.name)).toEqual(["rover"]);
    const part = await findPart(store.db, made.partId);
    expect(part).toMatchObject({ name: "rover-main", main_part: 1, revision: 1, restart_requested: 0, last_access: null, created_at: SEED_TIME, updated_at: SEED_TIME });
    expect(await currentRevision(store.db, made.partId)).toMatchObject({ revision: 1, config: '{"components":[]}', edited_by: "test", created_at: SEED_TIME });
    expect(await findApiKey(store.db, made.partKey.id)).toMatchObject({ scope: "part", scope_id: made.partId, revoked_at: null });
    expect(await currentConfigs(store.db, [made.partId])).toEqual(new Map([[made.partId, { components: [] }]]));
    const served = await servedPart(store.db, made.partId);
    expect(served).toMatchObject({ ownConfig: '{"components":[]}', revisionTime: SEED_TIME, location: { id: org.locationId, name: "main" } });
    expect(typeof served!.part.created_at).toBe("number");
  });

  it("refuses a second machine of one name in a location, and frees the name once the first is deleted", async () => {
    const store = await backend.open();
    const org = await seedOrganization(store.db);
    const first = await org.machine("rover");
    expect(await codeOf(org.machine("rover"))).toBe(Code.AlreadyExists);
    await deleteMachine(store.db, first.machineId, SEED_TIME + 1);
    expect(await codeOf(org.machine("rover"))).toBe("ok");
    expect(await findMachine(store.db, first.machineId)).toBeUndefined();
    expect(await store.db.selectFrom("machines").select("deleted_at").where("id", "=", first.machineId).executeTakeFirst()).toEqual({ deleted_at: SEED_TIME + 1 });
  });

  it("renames and moves a machine, refusing a name the location has", async () => {
    const store = await backend.open();
    const org = await seedOrganization(store.db);
    const other = await createLocation(store.db, { organizationId: org.organizationId, name: "lab", now: SEED_TIME });
    const rover = await org.machine("rover");
    await org.machine("arm");
    expect(await codeOf(updateMachine(store.db, rover.machineId, { name: "arm", locationId: org.locationId }))).toBe(Code.AlreadyExists);
    await updateMachine(store.db, rover.machineId, { name: "arm", locationId: other });
    expect(await findMachine(store.db, rover.machineId)).toMatchObject({ name: "arm", location_id: other });
    await expect(checkMachineNameFree(store.db, other, "arm", rover.machineId)).resolves.toBeUndefined();
  });

  it("adds, renames and deletes parts, never the main part, revoking a deleted part's key", async () => {
    const store = await backend.open();
    const org = await seedOrganization(store.db);
    const rover = await org.machine("rover");
    const camera = await addPart(store.db, { machineId: rover.machineId, organizationId: org.organizationId, name: "camera", editedBy: "test", now: SEED_TIME });
    expect(await codeOf(addPart(store.db, { machineId: rover.machineId, organizationId: org.organizationId, name: "camera", editedBy: "test", now: SEED_TIME }))).toBe(Code.AlreadyExists);
    expect((await partsOf(store.db, [rover.machineId])).map((p) => p.name)).toEqual(["rover-main", "camera"]);
    expect(await codeOf(renamePart(store.db, camera.partId, "rover-main"))).toBe(Code.AlreadyExists);
    await renamePart(store.db, camera.partId, "eye");
    expect(await codeOf(deletePart(store.db, rover.partId, SEED_TIME))).toBe(Code.FailedPrecondition);
    await deletePart(store.db, camera.partId, SEED_TIME + 5);
    expect(await findPart(store.db, camera.partId)).toBeUndefined();
    expect(await findApiKey(store.db, camera.partKey.id)).toMatchObject({ revoked_at: SEED_TIME + 5 });
    expect(await codeOf(deletePart(store.db, camera.partId, SEED_TIME))).toBe(Code.NotFound);
  });

  it("deletes a machine: its parts leave every read and their keys stop at once", async () => {
    const store = await backend.open();
    const org = await seedOrganization(store.db);
    const rover = await org.machine("rover");
    const camera = await addPart(store.db, { machineId: rover.machineId, organizationId: org.organizationId, name: "camera", editedBy: "test", now: SEED_TIME });
    await deleteMachine(store.db, rover.machineId, SEED_TIME + 9);
    expect(await partsOf(store.db, [rover.machineId])).toEqual([]);
    expect(await servedPart(store.db, rover.partId)).toBeUndefined();
    for (const key of [rover.partKey, camera.partKey]) expect((await findApiKey(store.db, key.id))?.revoked_at).toBe(SEED_TIME + 9);
    expect(await machinesIn(store.db, org.locationId)).toEqual([]);
  });

  it("lets exactly one of several writers racing for one name make the machine", async () => {
    const store = await backend.open();
    const peer = await backend.peer(store);
    const org = await seedOrganization(store.db);
    const make = (db: Kysely<Tables>) => codeOf(createMachine(db, { organizationId: org.organizationId, locationId: org.locationId, name: "twin", editedBy: "test", now: SEED_TIME }));
    const results = await Promise.all([store, peer, store, peer, store, peer].map((s) => make(s.db)));
    expect(results.filter((r) => r === "ok")).toHaveLength(1);
    expect(results.filter((r) => r === Code.AlreadyExists)).toHaveLength(5);
    expect((await machinesIn(store.db, org.locationId)).map((m) => m.name)).toEqual(["twin"]);
  });

  it("tells a part of a restart once, however many ask at once", async () => {
    const store = await backend.open();
    const peer = await backend.peer(store);
    const org = await seedOrganization(store.db);
    const rover = await org.machine("rover");
    expect(await takeRestartRequest(store.db, rover.partId)).toBe(false);
    await markForRestart(store.db, rover.partId);
    const told = await Promise.all([store, peer, store, peer].map((s) => takeRestartRequest(s.db, rover.partId)));
    expect(told.filter(Boolean)).toHaveLength(1);
    expect((await findPart(store.db, rover.partId))?.restart_requested).toBe(0);
  });

  it("notes a part's last contact at most once a minute", async () => {
    const store = await backend.open();
    const org = await seedOrganization(store.db);
    const rover = await org.machine("rover");
    const t = SEED_TIME + 1_000_000;
    await touchPart(store.db, rover.partId, t);
    await touchPart(store.db, rover.partId, t + 1000);
    const part = (await findPart(store.db, rover.partId))!;
    expect(part.last_access).toBe(t);
    expect(recentlyAccessed(part, t + LAST_ACCESS_RESOLUTION_MS - 1)).toBe(true);
    await touchPart(store.db, rover.partId, t + LAST_ACCESS_RESOLUTION_MS + 1);
    expect((await findPart(store.db, rover.partId))?.last_access).toBe(t + LAST_ACCESS_RESOLUTION_MS + 1);
  });
});

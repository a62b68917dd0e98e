// Parts with the same config and fragments share the work of merging and converting it, and a
// shared result is never served once a fragment it came from has changed: checked against the
// store itself, so another svc-cloud process on the same store (or a restore) is seen too.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RobotConfig } from "../../proto/gen/app/v1/robot_pb.js";
import { initialise, type InitResult } from "../../targets/cloud/commands/init.js";
import { createPartlessConfigs } from "../../targets/cloud/fleet/partless-configs.js";
import { createFragment, updateFragment } from "../../targets/cloud/fleet/save-fragment.js";
import { createMachine } from "../../targets/cloud/storage/fleet.js";
import { openStore, type Store } from "../../targets/cloud/storage/open-store.js";
import { saveRevision } from "../../targets/cloud/storage/revisions.js";
import { servedPart } from "../../targets/cloud/storage/served-part.js";

const sensor = (celsius: number) => ({ components: [{ name: "temp", api: "rdk:component:sensor", model: "fake", attributes: { readings: { celsius } } }] });

let dir: string;
let store: Store;
let init: InitResult;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "svc-partless-"));
  store = await openStore(dir);
  init = await initialise(store, { now: 1_000 });
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function fragment(id: string, config: Record<string, unknown>) {
  await createFragment(store.db, { organizationId: init.organization_id, id, name: id, config, editedBy: "test", now: 2_000 });
}

async function part(name: string, config: Record<string, unknown>) {
  const made = await createMachine(store.db, { locationId: init.location_id, organizationId: init.organization_id, name, editedBy: "test", now: 3_000 });
  await saveRevision(store.db, { partId: made.partId, config, editedBy: "test", now: 4_000 });
  const served = (await servedPart(store.db, made.partId))!;
  return { served, of: async (configs = shared) => (await configs.of(store, served.part, served.ownConfig, served.revisionTime)).config };
}

let shared = createPartlessConfigs();
beforeEach(() => {
  shared = createPartlessConfigs();
});

const celsiusOf = (config: RobotConfig) => (config.components[0]?.attributes?.readings as { celsius?: number } | undefined)?.celsius;

describe("configs parts share", () => {
  it("are worked out once for parts with the same config, and again for a part with its own", async () => {
    await fragment("f1", sensor(20));
    const a = await part("a", { fragments: ["f1"] });
    const b = await part("b", { fragments: ["f1"] });
    const c = await part("c", { fragments: ["f1"], fragment_mods: [{ fragment_id: "f1", mods: [{ $set: { "components.temp.attributes.readings.celsius": 30 } }] }] });
    const first = await a.of();
    expect(await b.of()).toBe(first);
    const own = await c.of();
    expect(own).not.toBe(first);
    expect(celsiusOf(first)).toBe(20);
    expect(celsiusOf(own)).toBe(30);
    expect(first.cloud).toBeUndefined();
    expect(first.revision).toBe("");
  });

  it("are worked out again once a fragment they merged changes, nested ones included", async () => {
    await fragment("inner", sensor(20));
    await fragment("outer", { fragments: ["inner"] });
    const a = await part("a", { fragments: ["outer"] });
    const before = await a.of();
    await updateFragment(store.db, { organizationId: init.organization_id, id: "inner", name: "inner", config: sensor(21), editedBy: "test", now: 5_000 });
    const after = await a.of();
    expect(after).not.toBe(before);
    expect(celsiusOf(after)).toBe(21);
    // A change within the same millisecond is a new revision all the same.
    await updateFragment(store.db, { organizationId: init.organization_id, id: "inner", name: "inner", config: sensor(22), editedBy: "test", now: 5_000 });
    expect(celsiusOf(await a.of())).toBe(22);
  });

  it("are worked out once for parts asking at the same moment after an edit, and never from before it", async () => {
    await fragment("f1", sensor(20));
    const parts = [await part("a", { fragments: ["f1"] }), await part("b", { fragments: ["f1"] }), await part("c", { fragments: ["f1"] })];
    const before = await parts[0]!.of();
    await updateFragment(store.db, { organizationId: init.organization_id, id: "f1", name: "f1", config: sensor(23), editedBy: "test", now: 5_000 });
    const [first, ...others] = await Promise.all(parts.map((p) => p.of()));
    expect(first).not.toBe(before);
    expect(celsiusOf(first!)).toBe(23);
    for (const other of others) expect(other).toBe(first);
    // A merge under way when the fragment changes again is not taken by a part asking after the change.
    const racing = createPartlessConfigs();
    const early = parts[0]!.of(racing);
    await updateFragment(store.db, { organizationId: init.organization_id, id: "f1", name: "f1", config: sensor(24), editedBy: "test", now: 6_000 });
    const late = parts[1]!.of(racing);
    expect(celsiusOf(await late)).toBe(24);
    expect([23, 24]).toContain(celsiusOf(await early));
  });

  it("see a change another process made to the store", async () => {
    await fragment("f1", sensor(20));
    const a = await part("a", { fragments: ["f1"] });
    await a.of();
    const other = await openStore(dir);
    try {
      await updateFragment(other.db, { organizationId: init.organization_id, id: "f1", name: "f1", config: sensor(25), editedBy: "other", now: 6_000 });
    } finally {
      await other.close();
    }
    expect(celsiusOf(await a.of())).toBe(25);
  });

  it("keep no failure: a merge that cannot be done says why every time", async () => {
    await fragment("f1", sensor(20));
    const a = await part("a", { fragments: ["f1"] });
    // Gone by other means than the API, which refuses to delete a fragment in use.
    await store.db.deleteFrom("fragment_revisions").where("fragment_id", "=", "f1").execute();
    await store.db.deleteFrom("fragments").where("id", "=", "f1").execute();
    await expect(a.of()).rejects.toThrow(/cannot be put together with its fragments: .*no fragment f1/);
    await expect(a.of()).rejects.toThrow(/no fragment f1/);
  });

  it("are held to their bound: past it the least recently used is let go", async () => {
    await fragment("f1", sensor(20));
    const a = await part("a", { fragments: ["f1"] });
    const b = await part("b", { fragments: ["f1"], debug: true });
    // Room for one of the two only.
    const small = createPartlessConfigs(300);
    const aFirst = await a.of(small);
    await b.of(small);
    expect(await a.of(small)).not.toBe(aFirst);
    const aAgain = await a.of(small);
    expect(await a.of(small)).toBe(aAgain);
  });
});

// Fragments through AppService over real HTTP/2: a part that lists one runs the merged config
// (device Config), per-part overrides apply, an edit of a fragment makes a revision for every part
// using it (nested too) and reaches each machine's revision stream at once. The hostile half: a
// clash refused when saving either side, cycles, another organisation's fragment, deep and big
// fragments, concurrent edits, a viewer, removal of a fragment in use.
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { createClient, type Client } from "@connectrpc/connect";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AppService } from "../../proto/gen/app/v1/app_pb.js";
import { AuthService } from "../../proto/gen/proto/rpc/v1/auth_pb.js";
import { createApiKey } from "../../targets/cloud/storage/api-keys.js";
import { addMember, createLocation, createOrganization, createUser } from "../../targets/cloud/storage/fleet.js";
import { hashPassword } from "../../targets/cloud/storage/secrets.js";
import { bearer, cloudTransport, signedInClient } from "../helpers/cloud-client.js";
import { startInProcessCloud, type InProcessCloud } from "../helpers/cloud-in-process.js";
import { watchedMachine } from "../helpers/cloud-machine.js";
import { eventually } from "../helpers/eventually.js";

type Config = Record<string, unknown>;

let cloud: InProcessCloud;
let app: Client<typeof AppService>;
const stops: Array<() => void> = [];

beforeEach(async () => {
  cloud = await startInProcessCloud();
  app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
});
afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  await cloud?.stop();
});

const db = () => cloud.server.context.store.db;
const orgId = () => cloud.init.organization_id;
const motor = (name: string, attributes: Config = {}) => ({ name, api: "rdk:component:motor", model: "rdk:builtin:fake", attributes });

async function machine(name: string) {
  const made = await watchedMachine(cloud, name);
  stops.push(made.stop);
  return made;
}

async function fragment(name: string, config: Config, client = app) {
  const { fragment } = await client.createFragment({ name, config: config as never, organizationId: orgId() });
  return fragment!;
}

const setConfig = (partId: string, config: Config) => app.updateRobotPart({ id: partId, name: "", robotConfig: config as never });
const revisionOf = async (partId: string) => (await db().selectFrom("parts").select("revision").where("id", "=", partId).executeTakeFirstOrThrow()).revision;

describe("fragments", () => {
  it("merge into the config a machine runs, with its overrides, and an edit reaches every machine using it", async () => {
    const base = await fragment("base", { components: [motor("wheel")] });
    const kit = await fragment("kit", { fragments: [base.id], components: [motor("arm", { speed: 1 })] });
    const a = await machine("a");
    const b = await machine("b");
    const bystander = await machine("c");
    await setConfig(a.partId, {
      components: [motor("own")],
      fragments: [{ id: kit.id }],
      fragment_mods: [{ fragment_id: kit.id, mods: [{ $set: { "components.arm.attributes.speed": 3 } }] }],
    });
    await setConfig(b.partId, { fragments: [base.id] });
    const merged = await a.config();
    expect(merged.components.map((c) => c.name)).toEqual(["own", "arm", "wheel"]);
    expect(merged.components.find((c) => c.name === "arm")?.attributes).toEqual({ speed: 3 });
    expect((await b.config()).components.map((c) => c.name)).toEqual(["wheel"]);

    const before = { a: await revisionOf(a.partId), b: await revisionOf(b.partId), c: await revisionOf(bystander.partId) };
    cloud.clock.advance(10);
    const { fragment: edited } = await app.updateFragment({ id: base.id, name: "base", config: { components: [motor("wheel"), motor("light")] } as never });
    expect(edited?.revision).toBe("2");
    expect(edited?.robotPartCount).toBe(2);
    // Each machine using it, directly or through kit, is told its new revision at once.
    await eventually(() => (a.notices.some((n) => n.revision === String(before.a + 1)) ? true : undefined), "the notice of a's new revision");
    await eventually(() => (b.notices.some((n) => n.revision === String(before.b + 1)) ? true : undefined), "the notice of b's new revision");
    expect(await revisionOf(bystander.partId)).toBe(before.c);
    expect((await a.config()).components.map((c) => c.name)).toEqual(["own", "arm", "wheel", "light"]);
    expect((await b.config()).revision).toBe(String(before.b + 1));

    const { history } = await app.getRobotPartHistory({ id: b.partId });
    expect(history[0]?.editedBy?.value).toBe(cloud.init.api_key.id);
    const { fragments, fragmentUsages } = await app.listFragments({ organizationId: orgId() });
    expect(fragments.map((f) => [f.name, f.robotPartCount])).toEqual([["base", 2], ["kit", 1]]);
    expect(fragmentUsages.find((u) => u.fragmentId === base.id)?.machines).toBe(2);
    const got = await app.getFragment({ id: base.id, version: "1" });
    expect(got.fragment?.fragment).toEqual({ components: [motor("wheel")] });
    expect(got.revisions.map((r) => r.revision)).toEqual(["2", "1"]);
  });

  it("refuses a resource name in both a part and a fragment, on the part's edit and on the fragment's", async () => {
    const kit = await fragment("kit", { components: [motor("arm")] });
    const a = await machine("a");
    await expect(setConfig(a.partId, { components: [motor("arm")], fragments: [kit.id] })).rejects.toThrow(
      `component "arm" is in both the part and fragment "kit" (${kit.id})`,
    );
    await setConfig(a.partId, { components: [motor("leg")], fragments: [kit.id] });
    const revision = await revisionOf(a.partId);
    await expect(app.updateFragment({ id: kit.id, name: "kit", config: { components: [motor("arm"), motor("leg")] } as never })).rejects.toThrow(
      new RegExp(`would break part "a-main" \\(${a.partId}\\), which uses it: component "leg" is in both part "a-main"`),
    );
    // Nothing was saved: not the fragment, not the part.
    expect((await app.getFragment({ id: kit.id })).fragment?.revision).toBe("1");
    expect(await revisionOf(a.partId)).toBe(revision);
  });

  it("refuses an edit that makes a cycle, naming it", async () => {
    const one = await fragment("one", {});
    const two = await fragment("two", { fragments: [one.id] });
    await expect(app.updateFragment({ id: one.id, name: "one", config: { fragments: [two.id] } as never })).rejects.toThrow(
      `fragments form a cycle: fragment "one" (${one.id}) -> fragment "two" (${two.id}) -> fragment "one" (${one.id})`,
    );
    await expect(app.updateFragment({ id: one.id, name: "one", config: { fragments: [one.id] } as never })).rejects.toThrow(/cycle/);
  });

  it("keeps another organisation's fragments out of reach, as if they did not exist", async () => {
    const now = cloud.clock.now();
    const otherOrg = await createOrganization(db(), { name: "other", now });
    await createLocation(db(), { organizationId: otherOrg, name: "x", now });
    const otherKey = await createApiKey(db(), { organizationId: otherOrg, name: "k", scope: "organization", scopeId: otherOrg, now });
    const other = await signedInClient(AppService, cloud.url, otherKey);
    const { fragment: theirs } = await other.createFragment({ name: "theirs", config: { components: [motor("x")] } as never, organizationId: otherOrg });
    const a = await machine("a");
    await expect(setConfig(a.partId, { fragments: [theirs!.id] })).rejects.toThrow(`[not_found] the part: fragments[0]: no fragment ${theirs!.id} in this organisation`);
    await expect(app.getFragment({ id: theirs!.id })).rejects.toThrow(`[not_found] fragment ${theirs!.id} not found`);
    await expect(app.updateFragment({ id: theirs!.id, name: "mine", config: {} as never })).rejects.toThrow("[not_found]");
    await expect(app.deleteFragment({ id: theirs!.id })).rejects.toThrow("[not_found]");
    await expect(app.listFragments({ organizationId: otherOrg })).rejects.toThrow("[not_found]");
    await expect(app.createFragment({ name: "x", config: {} as never, organizationId: otherOrg })).rejects.toThrow("[not_found]");
  });

  it("lets a viewer read fragments and nothing more", async () => {
    const kit = await fragment("kit", {});
    const userId = await createUser(db(), { email: "viewer@example.com", passwordHash: hashPassword("correct horse"), now: cloud.clock.now() });
    await addMember(db(), { organizationId: orgId(), userId, role: "viewer", now: cloud.clock.now() });
    const auth = createClient(AuthService, cloudTransport(cloud.url));
    const { accessToken } = await auth.authenticate({ entity: "viewer@example.com", credentials: { type: "password", payload: "correct horse" } });
    const viewer = createClient(AppService, cloudTransport(cloud.url, "grpc", [bearer(accessToken)]));
    expect((await viewer.getFragment({ id: kit.id })).fragment?.name).toBe("kit");
    await expect(viewer.updateFragment({ id: kit.id, name: "kit", config: {} as never })).rejects.toThrow("[permission_denied]");
    await expect(viewer.createFragment({ name: "x", config: {} as never, organizationId: orgId() })).rejects.toThrow("[permission_denied]");
    await expect(viewer.deleteFragment({ id: kit.id })).rejects.toThrow("[permission_denied]");
  });

  it("refuses deep, broken and public fragments with their reason", async () => {
    let deep: Config = { x: 1 };
    for (let i = 0; i < 40; i++) deep = { deeper: deep };
    await expect(fragment("deep", { components: [motor("m", deep)] })).rejects.toThrow("nests deeper than 32 levels");
    await expect(fragment("bad", { components: [{ name: "m", api: "rdk:component:motor" }] })).rejects.toThrow(/fragment "bad" .*has errors: components\[0\]/);
    await expect(fragment("creds", { cloud: { id: "x", secret: "y" } })).rejects.toThrow("a fragment cannot set cloud");
    await expect(fragment("", {})).rejects.toThrow("a fragment's name is 1 to 100 characters");
    await expect(app.createFragment({ name: "pub", config: {} as never, organizationId: orgId(), visibility: 2 })).rejects.toThrow("private");
    expect((await app.listFragments({ organizationId: orgId() })).fragments).toEqual([]);
  });

  it("lands concurrent edits whole, one revision each, and refuses stale ones as conflicts", async () => {
    const kit = await fragment("kit", { components: [motor("m0")] });
    const a = await machine("a");
    await setConfig(a.partId, { fragments: [kit.id] });
    const start = await revisionOf(a.partId);
    const edits = Array.from({ length: 8 }, (_, i) => app.updateFragment({ id: kit.id, name: "kit", config: { components: [motor(`m${i + 1}`)] } as never }));
    await Promise.all(edits);
    expect((await app.getFragment({ id: kit.id })).revisions).toHaveLength(9);
    expect(await revisionOf(a.partId)).toBe(start + 8);

    const seen = (await app.getFragment({ id: kit.id })).fragment!.lastUpdated!;
    const stale = await Promise.allSettled(
      Array.from({ length: 4 }, (_, i) => app.updateFragment({ id: kit.id, name: "kit", config: { components: [motor(`s${i}`)] } as never, lastKnownUpdate: seen })),
    );
    expect(stale.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const refused of stale.filter((r) => r.status === "rejected")) expect(String(refused.reason)).toMatch(/\[aborted\] fragment .* was changed at/);
    await expect(app.updateFragment({ id: kit.id, name: "kit", config: {} as never, lastKnownUpdate: timestampFromMs(0) })).rejects.toThrow("[aborted]");
  });

  it("removes a fragment no one uses, and refuses one in use, naming its users", async () => {
    const base = await fragment("base", {});
    const kit = await fragment("kit", { fragments: [base.id] });
    const a = await machine("a");
    await setConfig(a.partId, { fragments: [kit.id] });
    await expect(app.deleteFragment({ id: kit.id })).rejects.toThrow(`[failed_precondition] fragment "kit" (${kit.id}) is in use by part "a-main" (${a.partId})`);
    await expect(app.deleteFragment({ id: base.id })).rejects.toThrow(/is in use by part "a-main" .*, fragment "kit"/);
    await setConfig(a.partId, {});
    await app.deleteFragment({ id: kit.id });
    await app.deleteFragment({ id: base.id });
    await expect(app.getFragment({ id: kit.id })).rejects.toThrow("[not_found]");
  });
});

// Provisioning keys against the real svc-cloud: an owner makes a fragment and a provisioning key
// with the official SDK's app client; a mobile app (this test, over HTTP) reads the device's
// fragment_id from the agent's provisioning portal, makes the machine with
// `POST /api/json1/provision` and hands the portal the credentials it answered, which then run the
// machine with the fragment merged. The key does nothing else. The hostile half: no key, a wrong,
// unknown, revoked or other kind of key, another fragment, bad and oversize bodies, a name in
// use, many at once, and a part key trying every way there is to change its own fragments.
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CloudService } from "../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { RobotService } from "../../proto/gen/app/v1/robot_pb.js";
import { AuthService } from "../../proto/gen/proto/rpc/v1/auth_pb.js";
import { createClient } from "@connectrpc/connect";
import { createApiKey } from "../../targets/cloud/storage/api-keys.js";
import { createLocation, createOrganization } from "../../targets/cloud/storage/fleet.js";
import { openStore } from "../../targets/cloud/storage/open-store.js";
import { cloudTransport, signedInClient } from "../helpers/cloud-client.js";
import { startCloud, type CloudProcess, type MachineCredentials } from "../helpers/cloud-process.js";
import { startPortalFixture } from "../agent/network/portal-fixture.js";

const OWNER = { email: "owner@example.com", password: "correct horse battery" };
let cloud: CloudProcess;
let app: VIAM.ViamClient["appClient"];
let fragmentId: string;
let otherFragmentId: string;

const sdkClient = async (key: { id: string; key: string }) =>
  (await VIAM.createViamClient({ serviceHost: cloud.url, credentials: { type: "api-key", authEntity: key.id, payload: key.key } })).appClient;
const sensor = (name: string) => ({ name, api: "rdk:component:sensor", model: "fake" });
/** A machine made by `svc-cloud machine create` in the first location (another organisation has one too). */
const machine = (name: string) => cloud.createMachine(name, ["--location", cloud.init.location_id]);

const grant = (resourceType: string, resourceId: string, organizationId = cloud.init.organization_id, authorizationId = "provisioning") =>
  ({ authorizationType: "role", authorizationId, resourceType, resourceId, identityId: "", organizationId, identityType: "api-key" }) as VIAM.appApi.Authorization;

async function provisioningKey(name: string, fragment = fragmentId, locationId = cloud.init.location_id) {
  return app.createKey([grant("location", locationId), grant("fragment", fragment)], name);
}

interface Answer {
  status: number;
  body: { error?: string } & Partial<MachineCredentials>;
}

/** The mobile app's call: `POST /api/json1/provision` with the key in its headers. */
async function provision(key: { id: string; key: string } | undefined, body: unknown, init: { type?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = { "content-type": init.type ?? "application/json" };
  if (key !== undefined) Object.assign(headers, { key_id: key.id, key: key.key });
  const res = await fetch(`${cloud.url}/api/json1/provision`, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Answer["body"] };
}

const credentialsFile = (partId: string, key: { id: string; key: string }) => fetch(`${cloud.url}/api/json1/config?client=true&id=${partId}`, { headers: { key_id: key.id, key: key.key } });

beforeAll(async () => {
  cloud = await startCloud(OWNER);
  app = await sdkClient(cloud.init.api_key);
  fragmentId = (await app.createFragment(cloud.init.organization_id, "rover-base", VIAM.Struct.fromJson({ components: [sensor("temp")] })))!.id;
  otherFragmentId = (await app.createFragment(cloud.init.organization_id, "arm-base", VIAM.Struct.fromJson({ components: [sensor("grip")] })))!.id;
}, 60_000);
afterAll(() => cloud?.stop());

describe("the mobile app's provisioning with a fragment", () => {
  it("makes the machine the device names, whose credentials then run it with the fragment merged", async () => {
    const made = await provisioningKey("phone app");
    expect(made.key).toMatch(/^[a-z0-9]{32}$/);
    const listed = (await app.listKeys(cloud.init.organization_id)).find((k) => k.apiKey?.id === made.id)!;
    expect(listed.apiKey?.key).toBe("");
    expect(listed.authorizations.map((a) => [a.authorizationId, a.resourceType, a.resourceId])).toEqual([
      ["provisioning", "location", cloud.init.location_id],
      ["provisioning", "fragment", fragmentId],
    ]);

    const portal = await startPortalFixture({ fragmentId, needsCredentials: true });
    try {
      const status = (await (await fetch(`${portal.url}/api/v1/status`)).json()) as { fragment_id: string };
      expect(status.fragment_id).toBe(fragmentId);
      const answer = await provision(made, { name: "rover-7", fragment_id: status.fragment_id });
      expect(answer.status, answer.body.error).toBe(201);
      const creds = answer.body as MachineCredentials;
      expect(creds).toEqual({ cloud: { id: expect.any(String), api_key: { id: expect.any(String), key: expect.stringMatching(/^[a-z0-9]{32}$/) }, app_address: cloud.url } });
      const saved = await fetch(`${portal.url}/api/v1/credentials`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ part_id: creds.cloud.id, api_key_id: creds.cloud.api_key.id, api_key: creds.cloud.api_key.key, app_address: creds.cloud.app_address }),
      });
      expect(await saved.json()).toEqual({ ok: true });
      expect(portal.savedCredentials).toEqual([{ partId: creds.cloud.id, apiKeyId: creds.cloud.api_key.id, apiKey: creds.cloud.api_key.key, appAddress: cloud.url }]);

      // The credentials are the machine's own: its file, and its config with the fragment's sensor.
      expect(await (await credentialsFile(creds.cloud.id, creds.cloud.api_key)).json()).toEqual(creds);
      const device = await signedInClient(RobotService, cloud.url, creds.cloud.api_key);
      const config = (await device.config({ id: creds.cloud.id })).config!;
      expect(config.components.map((c) => c.name)).toEqual(["temp"]);
      expect(config.cloud?.id).toBe(creds.cloud.id);

      // A machine like any other, in the key's location, its own config listing the fragment, made by the key.
      const robot = (await app.listRobots(cloud.init.location_id)).find((r) => r.name === "rover-7")!;
      expect((await app.getRobotParts(robot.id)).map((p) => [p.id, p.name])).toEqual([[creds.cloud.id, "rover-7-main"]]);
      expect(JSON.parse((await app.getRobotPart(creds.cloud.id)).configJson)).toEqual({ fragments: [fragmentId] });
      const history = await app.getRobotPartHistory(creds.cloud.id);
      expect(history.map((h) => h.editedBy?.value)).toEqual([made.id]);
    } finally {
      await portal.stop();
    }
  });

  it("does nothing else: signing in, the app client, the device API and the credentials route refuse it, saying what it is for", async () => {
    const made = await provisioningKey("no more");
    const forWhat = /provisioning key only makes a machine in its location with its fragment attached \(POST \/api\/json1\/provision/;
    const sdk = await sdkClient(made).catch((thrown: Error) => thrown);
    expect(sdk).toBeInstanceOf(Error);
    expect((sdk as Error).message).toMatch(/permission_denied/);
    expect((sdk as Error).message).toMatch(forWhat);
    for (const wire of ["grpc", "grpc-web"] as const) {
      const auth = createClient(AuthService, cloudTransport(cloud.url, wire));
      await expect(auth.authenticate({ entity: made.id, credentials: { type: "api-key", payload: made.key } })).rejects.toThrow(/\[permission_denied\] a provisioning key only makes/);
    }
    const creds = machine("bystander");
    const file = await credentialsFile(creds.cloud.id, made);
    expect(file.status).toBe(403);
    expect(((await file.json()) as { error: string }).error).toMatch(forWhat);
    // The web app signs people in only.
    const session = await fetch(`${cloud.url}/app/session`, { method: "POST", headers: { "content-type": "application/json", origin: cloud.url }, body: JSON.stringify({ email: made.id, password: made.key }) });
    expect(session.status).toBe(401);
  });

  it("is made only by an owner, over a location and a fragment of one organisation that both exist", async () => {
    const orgId = cloud.init.organization_id;
    const locationId = cloud.init.location_id;
    await expect(app.createKey([grant("location", "no-such-location"), grant("fragment", fragmentId)], "x")).rejects.toThrow(/not_found.*location no-such-location not found/);
    await expect(app.createKey([grant("location", locationId), grant("fragment", "no-such-fragment")], "x")).rejects.toThrow(
      new RegExp(`not_found.*fragment no-such-fragment not found in the organisation of location ${locationId}`),
    );
    await expect(app.createKey([grant("location", locationId)], "x")).rejects.toThrow(/invalid_argument.*a provisioning key takes two "provisioning" authorizations.*found 1/);
    await expect(app.createKey([grant("location", locationId), grant("location", locationId)], "x")).rejects.toThrow(/invalid_argument.*none is over a fragment/);
    await expect(app.createKey([grant("location", locationId), grant("fragment", fragmentId, orgId, "organization_owner")], "x")).rejects.toThrow(
      /invalid_argument.*authorizations\[1\]\.authorization_id: must be "provisioning"/,
    );
    await expect(app.createKey([grant("location", locationId, "another-org"), grant("fragment", fragmentId)], "x")).rejects.toThrow(/invalid_argument.*name different organisations/);

    // Another organisation: its location is not found, nor is its fragment from here.
    const store = await openStore(cloud.dataDir);
    const other = await (async () => {
      const now = Date.now();
      const organizationId = await createOrganization(store.db, { name: "other", now });
      const otherLocation = await createLocation(store.db, { organizationId, name: "far", now });
      const key = await createApiKey(store.db, { organizationId, name: "theirs", scope: "organization", scopeId: organizationId, now });
      return { organizationId, locationId: otherLocation, key };
    })().finally(() => store.close());
    const theirs = await sdkClient(other.key);
    const theirFragment = (await theirs.createFragment(other.organizationId, "theirs", VIAM.Struct.fromJson({ components: [sensor("x")] })))!.id;
    await expect(app.createKey([grant("location", locationId), grant("fragment", theirFragment)], "x")).rejects.toThrow(/not_found.*fragment .* not found in the organisation/);
    await expect(app.createKey([grant("location", other.locationId, other.organizationId), grant("fragment", theirFragment, other.organizationId)], "x")).rejects.toThrow(/not_found.*location .* not found/);
    await expect(theirs.createKey([grant("location", other.locationId, other.organizationId), grant("fragment", fragmentId, other.organizationId)], "x")).rejects.toThrow(/not_found/);

    // A part key makes none.
    const part = await sdkClient(machine("keymaker").cloud.api_key);
    await expect(part.createKey([grant("location", locationId), grant("fragment", fragmentId)], "x")).rejects.toThrow(/permission_denied/);
  });

  it("refuses no key, a wrong, unknown or revoked key, another kind of key and another fragment", async () => {
    const made = await provisioningKey("hostile");
    const body = { name: "intruder", fragment_id: fragmentId };
    const refused = async (key: { id: string; key: string } | undefined, status: number, error: RegExp, sent: unknown = body) => {
      const answer = await provision(key, sent);
      expect(answer.status, JSON.stringify(answer.body)).toBe(status);
      expect(answer.body.error).toMatch(error);
    };
    await refused(undefined, 401, /needs a provisioning key in the key_id and key headers/);
    await refused({ id: made.id, key: "x".repeat(32) }, 401, /invalid credentials: key_id and key must be a live provisioning key/);
    await refused({ id: "no-such-key", key: made.key }, 401, /invalid credentials/);
    await refused(cloud.init.api_key, 403, /is an organisation key: \/api\/json1\/provision takes a provisioning key/);
    await refused(machine("part-keyed").cloud.api_key, 403, /is a part's own key, which reaches its own part's device API only/);
    await refused(made, 403, new RegExp(`fragment_id "${otherFragmentId}": this provisioning key attaches fragment ${fragmentId} only`), { name: "intruder", fragment_id: otherFragmentId });
    expect((await app.listRobots(cloud.init.location_id)).map((r) => r.name)).not.toContain("intruder");

    await app.deleteKey(made.id);
    await refused(made, 401, /invalid credentials/);
    expect((await app.listKeys(cloud.init.organization_id)).map((k) => k.apiKey?.id)).not.toContain(made.id);
  });

  it("refuses bad bodies and names in words, and a name already used", async () => {
    const made = await provisioningKey("careful");
    const refused = async (body: unknown, status: number, error: RegExp, type?: string) => {
      const answer = await provision(made, body, { type });
      expect(answer.status, JSON.stringify(answer.body)).toBe(status);
      expect(answer.body.error).toMatch(error);
    };
    await refused("{not json", 400, /the body is not JSON/);
    await refused("[1, 2]", 400, /the body must be a JSON object/);
    await refused({ name: "x", fragment_id: fragmentId }, 415, /the body must be JSON \(Content-Type: application\/json\)/, "text/plain");
    await refused({ name: "x".repeat(5000), fragment_id: fragmentId }, 413, /at most 4096/);
    await refused({ fragment_id: fragmentId }, 400, /^name: the new machine's name is needed/);
    await refused({ name: "x" }, 400, /^fragment_id: the fragment the device's provisioning status names is needed/);
    await refused({ name: "x", fragment_id: fragmentId, location_id: "elsewhere" }, 400, /"location_id": no such field; the body is \{"name": "\.\.\.", "fragment_id": "\.\.\."\}/);
    await refused({ name: "bad/name", fragment_id: fragmentId }, 400, /^name "bad\/name": 1 to 63 letters, digits/);
    await refused({ name: 7, fragment_id: fragmentId }, 400, /^name: /);
    expect((await provision(made, { name: "twin", fragment_id: fragmentId })).status).toBe(201);
    await refused({ name: "twin", fragment_id: fragmentId }, 409, /a machine named "twin" already exists in location/);
  });

  it("makes a machine of its own for each of many calls at once, and one only for each name", async () => {
    const made = await provisioningKey("busy");
    const names = Array.from({ length: 8 }, (_, i) => `crowd-${i}`);
    const answers = await Promise.all(names.map((name) => provision(made, { name, fragment_id: fragmentId })));
    expect(answers.map((a) => a.status)).toEqual(names.map(() => 201));
    const parts = answers.map((a) => a.body.cloud!.id);
    expect(new Set(parts).size).toBe(names.length);
    expect(new Set(answers.map((a) => a.body.cloud!.api_key.id)).size).toBe(names.length);
    const robots = (await app.listRobots(cloud.init.location_id)).filter((r) => r.name.startsWith("crowd-"));
    expect(robots.map((r) => r.name).sort()).toEqual(names);

    const same = await Promise.all(Array.from({ length: 4 }, () => provision(made, { name: "only-one", fragment_id: fragmentId })));
    expect(same.map((a) => a.status).sort()).toEqual([201, 409, 409, 409]);
    expect((await app.listRobots(cloud.init.location_id)).filter((r) => r.name === "only-one")).toHaveLength(1);
  });

  it("keeps its fragment from being removed while it is live", async () => {
    const lone = (await app.createFragment(cloud.init.organization_id, "lone", VIAM.Struct.fromJson({})))!.id;
    const made = await provisioningKey("pinning", lone);
    await expect(app.deleteFragment(lone)).rejects.toThrow(new RegExp(`failed_precondition.*is what provisioning key "pinning" \\(${made.id}\\) attaches: revoke the key first`));
    await app.deleteKey(made.id);
    await app.deleteFragment(lone);
  });

  it("limits guessing as signing in does", async () => {
    const guessed = { id: "guessed-key-id", key: "y".repeat(32) };
    for (let i = 0; i < 10; i++) expect((await provision(guessed, { name: "x", fragment_id: fragmentId })).status).toBe(401);
    const answer = await provision(guessed, { name: "x", fragment_id: fragmentId });
    expect(answer.status).toBe(429);
  });
});

describe("a part key and its own part's fragments", () => {
  it("is refused every way a part's fragments change: the app client, a restore, a fragment's edit and provisioning", async () => {
    const made = await provisioningKey("for a part");
    const creds = (await provision(made, { name: "selfish", fragment_id: fragmentId })).body as MachineCredentials;
    const partId = creds.cloud.id;
    const own = await sdkClient(creds.cloud.api_key);
    const deviceOnly = /permission_denied.*a part's key reaches its own part's device API only/;
    await expect(own.updateRobotPart(partId, "selfish-main", VIAM.Struct.fromJson({ fragments: [fragmentId, otherFragmentId] }))).rejects.toThrow(deviceOnly);
    await expect(own.updateRobotPart(partId, "selfish-main", VIAM.Struct.fromJson({}))).rejects.toThrow(deviceOnly);
    await expect(own.updateFragment(fragmentId, "rover-base", VIAM.Struct.fromJson({ fragments: [otherFragmentId] }))).rejects.toThrow(deviceOnly);
    await expect(own.createFragment(cloud.init.organization_id, "mine", VIAM.Struct.fromJson({}))).rejects.toThrow(deviceOnly);
    const cloudService = await signedInClient(CloudService, cloud.url, creds.cloud.api_key);
    await expect(cloudService.restoreRobotPartRevision({ partId, revision: "1" })).rejects.toThrow(/\[permission_denied\] a part's key reaches its own part's device API only/);
    await expect(cloudService.setLocationVersions({ locationId: cloud.init.location_id, svcServer: "dev" })).rejects.toThrow(/\[permission_denied\]/);
    const answer = await provision(creds.cloud.api_key, { name: "selfish-2", fragment_id: otherFragmentId });
    expect(answer.status).toBe(403);
    expect(answer.body.error).toMatch(/is a part's own key/);

    // Nothing changed: one revision, listing the key's fragment only.
    const history = await app.getRobotPartHistory(partId);
    expect(history).toHaveLength(1);
    expect(JSON.parse((await app.getRobotPart(partId)).configJson)).toEqual({ fragments: [fragmentId] });
    expect((await (await signedInClient(RobotService, cloud.url, creds.cloud.api_key)).config({ id: partId })).config!.components.map((c) => c.name)).toEqual(["temp"]);
  });
});

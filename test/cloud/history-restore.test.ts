// A part's config history and restore, over real HTTP/2 and through the official SDK's app
// client: every revision with who and when, newest first, its number in the config; a restore is a
// new revision equal to the old one, told to the machine at once. The hostile half: a revision
// that does not exist, one that is not a number, a viewer, another organisation, a revision that
// can no longer be put together with its fragments.
import * as VIAM from "@viamrobotics/sdk";
import { createClient, type Client } from "@connectrpc/connect";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AppService, AuthenticationType } from "../../proto/gen/app/v1/app_pb.js";
import { AuthService } from "../../proto/gen/proto/rpc/v1/auth_pb.js";
import { CloudService } from "../../proto/gen/svc/cloud/v1/cloud_pb.js";
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
let cloudService: Client<typeof CloudService>;
const stops: Array<() => void> = [];

beforeEach(async () => {
  cloud = await startInProcessCloud();
  app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
  cloudService = await signedInClient(CloudService, cloud.url, cloud.init.api_key);
});
afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  await cloud?.stop();
});

const db = () => cloud.server.context.store.db;
const sensor = (name: string) => ({ name, api: "rdk:component:sensor", model: "fake" });

async function machine(name: string) {
  const made = await watchedMachine(cloud, name);
  stops.push(made.stop);
  return made;
}

async function edit(partId: string, config: Config) {
  cloud.clock.advance(1000);
  await app.updateRobotPart({ id: partId, name: "", robotConfig: config as never });
}

describe("history", () => {
  it("answers every revision newest first, with who, when, the whole config and its number", async () => {
    const m = await machine("rover");
    await edit(m.partId, { components: [sensor("a")] });
    await edit(m.partId, { components: [sensor("a"), sensor("b")] });
    const { history } = await app.getRobotPartHistory({ id: m.partId });
    expect(history.map((h) => h.old?.robotConfig?.revision)).toEqual(["3", "2", "1"]);
    expect(history[0]).toMatchObject({ part: m.partId, editedBy: { type: AuthenticationType.API_KEY, value: cloud.init.api_key.id } });
    expect(history[2]?.editedBy?.value).toBe("svc-cloud");
    expect(history[0]?.old?.robotConfig).toEqual({ components: [sensor("a"), sensor("b")], revision: "3" });
    expect(Number(history[0]!.when!.seconds)).toBeGreaterThan(Number(history[1]!.when!.seconds));

    // The official SDK reads the same entries.
    const sdk = await VIAM.createViamClient({ serviceHost: cloud.url, credentials: { type: "api-key", authEntity: cloud.init.api_key.id, payload: cloud.init.api_key.key } });
    const entries = await sdk.appClient.getRobotPartHistory(m.partId);
    expect(entries.map((e) => e.old?.robotConfig?.toJson())).toEqual(history.map((h) => h.old?.robotConfig));
  });
});

describe("restore", () => {
  it("makes a new revision equal to the old one, leaves history as it was, and tells the machine", async () => {
    const m = await machine("rover");
    await edit(m.partId, { components: [sensor("first")] });
    await edit(m.partId, { components: [sensor("second")] });
    cloud.clock.advance(1000);
    const { part } = await cloudService.restoreRobotPartRevision({ partId: m.partId, revision: "2" });
    expect(part?.robotConfig).toEqual({ components: [sensor("first")], revision: "4" });
    await eventually(() => (m.notices.some((n) => n.revision === "4") ? true : undefined), "the notice of the restored revision");
    const { config } = await m.robot.config({ id: m.partId });
    expect(config?.components.map((c) => c.name)).toEqual(["first"]);
    const { history } = await app.getRobotPartHistory({ id: m.partId });
    expect(history.map((h) => h.old?.robotConfig)).toEqual([
      { components: [sensor("first")], revision: "4" },
      { components: [sensor("second")], revision: "3" },
      { components: [sensor("first")], revision: "2" },
      { revision: "1" },
    ]);
  });

  it("refuses a revision that does not exist or is not a number, and says where numbers are", async () => {
    const m = await machine("rover");
    await expect(cloudService.restoreRobotPartRevision({ partId: m.partId, revision: "9" })).rejects.toThrow(`[not_found] part ${m.partId} has no revision 9 (its newest is 1)`);
    await expect(cloudService.restoreRobotPartRevision({ partId: m.partId, revision: "0" })).rejects.toThrow("[invalid_argument]");
    await expect(cloudService.restoreRobotPartRevision({ partId: m.partId, revision: "1; drop" })).rejects.toThrow(/expected a revision number.*robot_config\.revision/);
    await expect(cloudService.restoreRobotPartRevision({ partId: "nope", revision: "1" })).rejects.toThrow("[not_found]");
  });

  it("is refused to a viewer and to another organisation", async () => {
    const m = await machine("rover");
    const userId = await createUser(db(), { email: "viewer@example.com", passwordHash: hashPassword("correct horse"), now: cloud.clock.now() });
    await addMember(db(), { organizationId: cloud.init.organization_id, userId, role: "viewer", now: cloud.clock.now() });
    const auth = createClient(AuthService, cloudTransport(cloud.url));
    const { accessToken } = await auth.authenticate({ entity: "viewer@example.com", credentials: { type: "password", payload: "correct horse" } });
    const asViewer = createClient(CloudService, cloudTransport(cloud.url, "grpc", [bearer(accessToken)]));
    await expect(asViewer.restoreRobotPartRevision({ partId: m.partId, revision: "1" })).rejects.toThrow("[permission_denied]");
    // A viewer reads history all the same.
    const viewerApp = createClient(AppService, cloudTransport(cloud.url, "grpc", [bearer(accessToken)]));
    expect((await viewerApp.getRobotPartHistory({ id: m.partId })).history).toHaveLength(1);

    const now = cloud.clock.now();
    const otherOrg = await createOrganization(db(), { name: "other", now });
    await createLocation(db(), { organizationId: otherOrg, name: "x", now });
    const otherKey = await createApiKey(db(), { organizationId: otherOrg, name: "k", scope: "organization", scopeId: otherOrg, now });
    const other = await signedInClient(CloudService, cloud.url, otherKey);
    await expect(other.restoreRobotPartRevision({ partId: m.partId, revision: "1" })).rejects.toThrow(`[not_found] part ${m.partId} not found`);
    const otherApp = await signedInClient(AppService, cloud.url, otherKey);
    await expect(otherApp.getRobotPartHistory({ id: m.partId })).rejects.toThrow("[not_found]");
    expect((await app.getRobotPartHistory({ id: m.partId })).history).toHaveLength(1);
  });

  it("refuses a revision that can no longer be put together with its fragments", async () => {
    const m = await machine("rover");
    const { fragment } = await app.createFragment({ name: "kit", config: { components: [sensor("k")] } as never, organizationId: cloud.init.organization_id });
    await edit(m.partId, { fragments: [fragment!.id] });
    await edit(m.partId, {});
    await app.deleteFragment({ id: fragment!.id });
    await expect(cloudService.restoreRobotPartRevision({ partId: m.partId, revision: "2" })).rejects.toThrow(
      `[not_found] revision 2 cannot be restored as it is: the part: fragments[0]: no fragment ${fragment!.id} in this organisation`,
    );
    expect((await app.getRobotPartHistory({ id: m.partId })).history).toHaveLength(3);
  });
});

// The official SDK's app client against the real svc-cloud: organisations, locations, machines and
// parts, a part's config read and edited, logs read and tailed, machine summaries and organisation keys, as a script
// using the SDK does it.
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { RobotService } from "../../proto/gen/app/v1/robot_pb.js";
import { signedInClient } from "../helpers/cloud-client.js";
import { startCloud, type CloudProcess } from "../helpers/cloud-process.js";
import { eventually } from "../helpers/eventually.js";

let cloud: CloudProcess;
let app: VIAM.ViamClient["appClient"];

const sdkClient = async (key: { id: string; key: string }) =>
  (await VIAM.createViamClient({ serviceHost: cloud.url, credentials: { type: "api-key", authEntity: key.id, payload: key.key } })).appClient;

beforeAll(async () => {
  cloud = await startCloud({ email: "owner@example.com", password: "correct horse battery" });
  app = await sdkClient(cloud.init.api_key);
});
afterAll(() => cloud?.stop());

/** A machine made by `svc-cloud machine create` in the first location. */
const machine = (name: string) => cloud.createMachine(name, ["--location", cloud.init.location_id]);
const sensor = (name: string) => ({ name, api: "rdk:component:sensor", model: "fake" });

describe("the SDK's app client", () => {
  it("lists the organisation, its members and its locations", async () => {
    const { organization_id: orgId, location_id: locationId } = cloud.init;
    const orgs = await app.listOrganizations();
    expect(orgs.map((o) => o.id)).toEqual([orgId]);
    expect((await app.getOrganization(orgId))?.name).toBe("svc");
    const members = await app.listOrganizationMembers(orgId);
    expect(members.members.map((m) => m.emails)).toEqual([["owner@example.com"]]);
    const locations = await app.listLocations(orgId);
    expect(locations.map((l) => [l.id, l.name])).toEqual([[locationId, "main"]]);
    const made = await app.createLocation(orgId, "lab");
    expect((await app.getLocation(made!.id))?.name).toBe("lab");
    await expect(app.createLocation(orgId, "lab")).rejects.toThrow(/already_exists.*a location named "lab"/);
  });

  it("makes, lists, renames and reads machines and their parts", async () => {
    const machineId = await app.newRobot(cloud.init.location_id, "rover");
    const fromCli = machine("arm");
    const robots = await app.listRobots(cloud.init.location_id);
    expect(robots.map((r) => r.name)).toEqual(["arm", "rover"]);
    expect(robots.find((r) => r.name === "rover")?.onlineState).toBe(VIAM.appApi.OnlineState.AWAITING_SETUP);
    const renamed = await app.updateRobot(machineId, cloud.init.location_id, "rover-2");
    expect(renamed?.name).toBe("rover-2");
    expect((await app.getRobot(machineId))?.name).toBe("rover-2");
    await expect(app.updateRobot(machineId, cloud.init.location_id, "arm")).rejects.toThrow(/already_exists.*a machine named "arm"/);

    const parts = await app.getRobotParts(machineId);
    expect(parts.map((p) => [p.name, p.mainPart, p.robot])).toEqual([["rover-main", true, machineId]]);
    const armPart = await app.getRobotPart(fromCli.cloud.id);
    expect(armPart.part?.robotConfig?.toJson()).toEqual({});
    expect(JSON.parse(armPart.configJson)).toEqual({});
  });

  it("edits a part's config and reads it back, in the part and its config_json", async () => {
    const creds = machine("editor");
    const partId = creds.cloud.id;
    const config = { components: [sensor("temp")] };
    const updated = await app.updateRobotPart(partId, "editor-main", VIAM.Struct.fromJson(config));
    expect(updated?.robotConfig?.toJson()).toEqual(config);
    const read = await app.getRobotPart(partId);
    expect(read.part?.robotConfig?.toJson()).toEqual(config);
    expect(JSON.parse(read.configJson)).toEqual(config);
    const renamed = await app.updateRobotPart(partId, "editor-core", VIAM.Struct.fromJson(config));
    expect(renamed?.name).toBe("editor-core");
    await expect(app.updateRobotPart(partId, "editor-core", VIAM.Struct.fromJson({ components: [{ ...sensor("bad name!") }] }))).rejects.toThrow(
      /invalid_argument.*the config was not saved: robot_config\.components\[0\]\.name: must be a name/,
    );
    expect((await app.getRobotPart(partId)).part?.robotConfig?.toJson()).toEqual(config);
    const history = await app.getRobotPartHistory(partId);
    expect(history.map((h) => (h.old?.robotConfig?.toJson() as { components?: unknown } | undefined)?.components)).toEqual([config.components, config.components, undefined]);
    expect(history[0]!.editedBy?.value).toBe(cloud.init.api_key.id);
  });

  it("adds and deletes parts, never the main one, and marks a part for restart", async () => {
    const creds = machine("twin");
    const machineId = (await app.getRobotPart(creds.cloud.id)).part!.robot;
    const second = await app.newRobotPart(machineId, "twin-second");
    expect((await app.getRobotParts(machineId)).map((p) => [p.name, p.mainPart])).toEqual([["twin-main", true], ["twin-second", false]]);
    await expect(app.newRobotPart(machineId, "twin-second")).rejects.toThrow(/already_exists/);
    await expect(app.deleteRobotPart(creds.cloud.id)).rejects.toThrow(/failed_precondition.*main part: delete the machine instead/);
    await app.markPartForRestart(second);
    await app.deleteRobotPart(second);
    expect((await app.getRobotParts(machineId)).map((p) => p.name)).toEqual(["twin-main"]);
    await expect(app.getRobotPart(second)).rejects.toThrow(/not_found/);
  });

  it("summarises machines by location with their parts", async () => {
    const creds = machine("summarised");
    const fragment = await app.createFragment(cloud.init.organization_id, "sensors", VIAM.Struct.fromJson({ components: [sensor("shared")] }));
    await app.updateRobotPart(creds.cloud.id, "summarised-main", VIAM.Struct.fromJson({ fragments: [fragment!.id] }));
    const all = await app.listMachineSummaries(cloud.init.organization_id);
    const main = all.find((l) => l.locationId === cloud.init.location_id)!;
    const summary = main.machineSummaries.find((m) => m.machineName === "summarised")!;
    expect(summary.partSummaries.map((p) => [p.partId, p.isMainPart, p.onlineState])).toEqual([[creds.cloud.id, true, VIAM.appApi.OnlineState.AWAITING_SETUP]]);
    const byFragment = await app.listMachineSummaries(cloud.init.organization_id, [fragment!.id]);
    expect(byFragment.flatMap((l) => l.machineSummaries.map((m) => m.machineName))).toEqual(["summarised"]);
    expect(byFragment[0]!.machineSummaries[0]!.partSummaries[0]!.fragments.map((f) => f.id)).toEqual([fragment!.id]);
  });

  it("deletes a machine: its parts are gone and their keys refused at once", async () => {
    const creds = machine("doomed");
    const machineId = (await app.getRobotPart(creds.cloud.id)).part!.robot;
    const keys = await app.getRobotAPIKeys(machineId);
    expect(keys.map((k) => [k.apiKey?.id, k.apiKey?.key])).toEqual([[creds.cloud.api_key.id, ""]]);
    await app.deleteRobot(machineId);
    await expect(app.getRobot(machineId)).rejects.toThrow(/not_found/);
    await expect(app.getRobotPart(creds.cloud.id)).rejects.toThrow(/not_found/);
    expect((await app.listRobots(cloud.init.location_id)).map((r) => r.name)).not.toContain("doomed");
    const device = await VIAM.createViamClient({ serviceHost: cloud.url, credentials: { type: "api-key", authEntity: creds.cloud.api_key.id, payload: creds.cloud.api_key.key } }).catch((e: Error) => e);
    expect(String(device instanceof Error ? device.message : "signed in")).toMatch(/invalid credentials/);
    // The name is free again.
    expect(machine("doomed").cloud.id).not.toBe(creds.cloud.id);
  });

  it("reads a machine's logs by level and text, and tails them as they arrive", async () => {
    const creds = machine("chatty");
    const device = await signedInClient(RobotService, cloud.url, creds.cloud.api_key);
    const entry = (level: string, message: string) => ({ host: "chatty", level, time: timestampFromMs(Date.now()), loggerName: "rdk", message, caller: {}, stack: "", fields: [] });
    await device.log({ id: creds.cloud.id, logs: [entry("info", "motor started"), entry("error", "motor stalled"), entry("info", "sensor ready")] });
    const all = await app.getRobotPartLogs(creds.cloud.id);
    expect(all.logs.map((l) => l.message)).toEqual(["sensor ready", "motor stalled", "motor started"]);
    const errors = await app.getRobotPartLogs(creds.cloud.id, "", ["error"]);
    expect(errors.logs.map((l) => l.message)).toEqual(["motor stalled"]);
    const motor = await app.getRobotPartLogs(creds.cloud.id, "motor");
    expect(motor.logs.map((l) => l.message)).toEqual(["motor stalled", "motor started"]);

    const queue: VIAM.commonApi.LogEntry[] = [];
    // The SDK tails errors only unless told otherwise.
    const tail = app.tailRobotPartLogs(creds.cloud.id, queue).catch(() => undefined);
    await eventually(async () => {
      await device.log({ id: creds.cloud.id, logs: [entry("error", "battery low")] });
      return queue.some((l) => l.message === "battery low") ? true : undefined;
    }, "the tail to carry a new entry");
    void tail;
  });

  it("creates, lists and revokes organisation keys; a revoked key is refused at once", async () => {
    const orgId = cloud.init.organization_id;
    const authorization = {
      authorizationType: "role",
      authorizationId: "organization_owner",
      resourceType: "organization",
      resourceId: orgId,
      identityId: "",
      organizationId: orgId,
      identityType: "api-key",
    } as VIAM.appApi.Authorization;
    const made = await app.createKey([authorization], "script");
    expect(made.key).toMatch(/^[a-z0-9]{32}$/);
    const listed = await app.listKeys(orgId);
    expect(listed.map((k) => [k.apiKey?.name, k.apiKey?.key])).toContainEqual(["script", ""]);
    const script = await sdkClient({ id: made.id, key: made.key });
    expect((await script.listOrganizations()).map((o) => o.id)).toEqual([orgId]);
    await app.deleteKey(made.id);
    await expect(script.listOrganizations()).rejects.toThrow(/unauthenticated.*revoked/);
    expect((await app.listKeys(orgId)).map((k) => k.apiKey?.id)).not.toContain(made.id);
    await expect(app.createKey([{ ...authorization, authorizationId: "location_owner" } as VIAM.appApi.Authorization], "x")).rejects.toThrow(
      /invalid_argument.*authorization_id: must be one of organization_owner/,
    );
  });

  it("makes a key for a machine made with newRobot, whose credentials file then runs it", async () => {
    const orgId = cloud.init.organization_id;
    const machineId = await app.newRobot(cloud.init.location_id, "keyless");
    const [part] = await app.getRobotParts(machineId);
    const partKey = (resourceId: string, resourceType = "robot_part") =>
      ({ authorizationType: "role", authorizationId: "robot_part_device", resourceType, resourceId, identityId: "", organizationId: orgId, identityType: "api-key" }) as VIAM.appApi.Authorization;
    const made = await app.createKey([partKey(part!.id)], "install");
    expect(made.key).toMatch(/^[a-z0-9]{32}$/);
    expect((await app.getRobotAPIKeys(machineId)).map((k) => k.apiKey?.id)).toContain(made.id);
    expect((await app.listKeys(orgId)).map((k) => k.apiKey?.id)).not.toContain(made.id);

    const file = await fetch(`${cloud.url}/api/json1/config?client=true&id=${part!.id}`, { headers: { key_id: made.id, key: made.key } });
    expect(await file.json()).toEqual({ cloud: { id: part!.id, api_key: { id: made.id, key: made.key }, app_address: cloud.url } });
    const device = await signedInClient(RobotService, cloud.url, { id: made.id, key: made.key });
    expect((await device.config({ id: part!.id })).config?.cloud?.id).toBe(part!.id);

    // Only for a part, by an owner, named right.
    await expect(app.createKey([partKey("no-such-part")], "x")).rejects.toThrow(/not_found/);
    await expect(app.createKey([partKey(part!.id, "robot")], "x")).rejects.toThrow(/invalid_argument.*robot_part_device is granted over one robot_part/);
    const other = machine("someone-else");
    const partScoped = await sdkClient(other.cloud.api_key);
    await expect(partScoped.createKey([partKey(part!.id)], "x")).rejects.toThrow(/permission_denied/);
  });
});

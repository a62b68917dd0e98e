// MachineConfig against svc-cloud in this process: the part's config in svc's own JSON, fragments
// merged and overrides applied, every key svc-server knows kept (the ones RobotConfig cannot
// carry too), nothing of svc-cloud's bookkeeping or any secret in it, and svc-server's own
// validator takes it once the machine's credentials are its `cloud`. Beside it: the revision
// Config answers and who the part is, as Config's `cloud` says. The hostile half: no token,
// another part's key, an unknown part, a revoked key.
import { createClient } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readMachineConfig } from "../../core/index.js";
import { AppService } from "../../proto/gen/app/v1/app_pb.js";
import { RobotService } from "../../proto/gen/app/v1/robot_pb.js";
import { CloudService } from "../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { revokeApiKey } from "../../targets/cloud/storage/api-keys.js";
import { createMachine } from "../../targets/cloud/storage/fleet.js";
import { cloudTransport, signedInClient } from "../helpers/cloud-client.js";
import { startInProcessCloud, type InProcessCloud } from "../helpers/cloud-in-process.js";

let cloud: InProcessCloud;
beforeAll(async () => {
  cloud = await startInProcessCloud();
});
afterAll(() => cloud?.stop());

const db = () => cloud.server.context.store.db;

async function machine(name: string) {
  const made = await createMachine(db(), { locationId: cloud.init.location_id, organizationId: cloud.init.organization_id, name, editedBy: "test", now: cloud.clock.now() });
  return { ...made, device: await signedInClient(CloudService, cloud.url, made.partKey), robot: await signedInClient(RobotService, cloud.url, made.partKey) };
}

const lampComponent = { name: "lamp", api: "rdk:component:generic", model: "fake", attributes: { brightness: 1 } };

describe("CloudService.MachineConfig", () => {
  it("answers the part's config as svc-server reads a file, fragments merged and every key kept", async () => {
    const m = await machine("rover");
    const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
    const lamp = (await app.createFragment({ organizationId: cloud.init.organization_id, name: "lamp", config: { components: [lampComponent] } as never })).fragment!.id;
    const own = {
      fragments: [lamp],
      fragment_mods: [{ fragment_id: lamp, mods: [{ $set: { "components.lamp.attributes.brightness": 3 } }] }],
      components: [{ name: "temp", api: "rdk:component:sensor", model: "fake" }],
      processes: [{ id: "tick", name: "/bin/true", one_shot: true }],
      modules: [{ type: "local", name: "counter", executable_path: "/opt/counter", version: "1.2.3" }],
      global_log_configuration: [{ api: "rdk:component:sensor", level: "debug" }],
      network: { max_message_bytes: 1048576 },
    };
    await app.updateRobotPart({ id: m.partId, name: "", robotConfig: own as never });

    const answer = await m.device.machineConfig({ partId: m.partId });
    const config = JSON.parse(answer.config) as Record<string, unknown>;
    for (const key of ["cloud", "revision", "fragments", "fragment_mods"]) expect(config).not.toHaveProperty(key);
    expect(config.components).toEqual(expect.arrayContaining([expect.objectContaining({ name: "lamp", attributes: { brightness: 3 } }), expect.objectContaining({ name: "temp" })]));
    expect(config).toMatchObject({ processes: own.processes, modules: own.modules, global_log_configuration: own.global_log_configuration, network: own.network });
    expect(answer.config).not.toContain(m.partKey.key);

    // The revision and the part's ids are those Config answers.
    const { config: robotConfig } = await m.robot.config({ id: m.partId });
    expect(answer.revision).toBe(robotConfig!.revision);
    expect(answer).toMatchObject({
      partId: m.partId,
      machineId: robotConfig!.cloud!.machineId,
      locationId: cloud.init.location_id,
      primaryOrgId: cloud.init.organization_id,
      fqdn: robotConfig!.cloud!.fqdn,
      localFqdn: robotConfig!.cloud!.localFqdn,
    });
    expect(Number(answer.time!.seconds) * 1000).toBeLessThanOrEqual(cloud.clock.now());

    // With the machine's credentials as its `cloud`, svc-server's validator takes it whole.
    const withCredentials = { ...config, cloud: { id: m.partId, secret: m.partKey.key, app_address: cloud.url } };
    const reading = readMachineConfig(JSON.stringify(withCredentials));
    expect(reading.issues.filter((issue) => issue.severity === "error")).toEqual([]);
    expect(reading.config?.global_log_configuration).toEqual(own.global_log_configuration);
  });

  it("follows a new revision, and answers the organisation's key too", async () => {
    const m = await machine("follower");
    const first = await m.device.machineConfig({ partId: m.partId });
    const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
    await app.updateRobotPart({ id: m.partId, name: "", robotConfig: { components: [{ name: "m1", api: "rdk:component:motor", model: "fake" }] } as never });
    const next = await m.device.machineConfig({ partId: m.partId });
    expect(Number(next.revision)).toBe(Number(first.revision) + 1);
    expect(JSON.parse(next.config)).toMatchObject({ components: [{ name: "m1" }] });
    const org = await signedInClient(CloudService, cloud.url, cloud.init.api_key);
    expect((await org.machineConfig({ partId: m.partId })).revision).toBe(next.revision);
  });

  it("refuses no token, another part's key, an unknown part and a revoked key", async () => {
    const a = await machine("hostile-a");
    const b = await machine("hostile-b");
    const anonymous = createClient(CloudService, cloudTransport(cloud.url));
    await expect(anonymous.machineConfig({ partId: a.partId })).rejects.toThrow(/\[unauthenticated\]/);
    // Another part is answered exactly as a part that does not exist.
    await expect(b.device.machineConfig({ partId: a.partId })).rejects.toThrow(new RegExp(`\\[not_found\\] part ${a.partId} not found$`));
    await expect(a.device.machineConfig({ partId: "no-such-part" })).rejects.toThrow(/\[not_found\] part no-such-part not found$/);
    await expect(a.device.machineConfig({ partId: "" })).rejects.toThrow(/\[not_found\]/);
    await revokeApiKey(db(), a.partKey.id, cloud.clock.now());
    await expect(a.device.machineConfig({ partId: a.partId })).rejects.toThrow(/\[unauthenticated\] the API key of this token was revoked/);
  });
});

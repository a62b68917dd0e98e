// A remote part reached over WebRTC through svc-cloud: the real svc-cloud and two real svc-server
// processes, the two parts of one machine in it. The main part's config (pushed from svc-cloud)
// names the other part as a remote by its fqdn, which does not resolve here, so the direct dial
// fails and the remote is dialled over WebRTC, signaled through svc-cloud with the main part's own
// key. Through the main part: the remote's sensor listed and read, its motors driven by a base of
// the main part (their typed stand-ins, on the same connection); the remote killed and started
// again comes back; an API key on the remote, given in the remote entry's `auth`, signs in inside
// the connection, and a wrong key is reported as refused.
import { toJson } from "@bufbuild/protobuf";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GetReadingsResponseSchema } from "../../proto/gen/common/v1/common_pb.js";
import { BaseService } from "../../proto/gen/component/base/v1/base_pb.js";
import { MotorService } from "../../proto/gen/component/motor/v1/motor_pb.js";
import { SensorService } from "../../proto/gen/component/sensor/v1/sensor_pb.js";
import { cloudManagedMachine, cloudManagedPart, type CloudManaged } from "../helpers/cloud-managed.js";
import { startCloud, type CloudProcess } from "../helpers/cloud-process.js";
import { partNames } from "../helpers/cloud-signaling.js";
import { eventually } from "../helpers/eventually.js";
import type { SvcServerProcess } from "../helpers/svc-server-process.js";
import { nameHere, robotClient, when } from "./parts.js";

const sensor = "rdk:component:sensor";
const motor = "rdk:component:motor";
const base = "rdk:component:base";
const key = { id: "main-part", key: "a-long-random-key-for-the-main-part" };
const armConfig = {
  components: [
    { name: "temp", api: sensor, model: "fake", attributes: { readings: { celsius: 21.5 } } },
    { name: "m1", api: motor, model: "fake" },
    { name: "m2", api: motor, model: "fake" },
  ],
};
const withKey = { ...armConfig, auth: { handlers: [{ type: "api-key", config: { [key.id]: key.key, keys: [key.id] } }] } };
// The remote's outages are found by its listing's 5 s deadline and dialled again with backoff.
const slow = { timeoutMs: 60_000 };

let cloud: CloudProcess;
let main: CloudManaged;
let arm: CloudManaged;
let mainServer: SvcServerProcess;
let armServer: SvcServerProcess;
let armFqdn: string;

/** The main part's config: the remote by its fqdn, with `extra` in its entry, and a base on the remote's motors. */
const mainConfig = (extra: Record<string, unknown> = {}) => ({
  remotes: [{ name: "arm", address: armFqdn, insecure: true, connection_check_interval: "1s", reconnect_interval: "100ms", ...extra }],
  components: [{ name: "rover", api: base, model: "wheeled", attributes: { left: ["arm:m1"], right: ["arm:m2"], width_mm: 300, wheel_circumference_mm: 200 } }],
});

beforeAll(async () => {
  cloud = await startCloud();
  main = await cloudManagedMachine(cloud, "rover");
  arm = await cloudManagedPart(cloud, main, "arm");
  ({ fqdn: armFqdn } = await partNames(cloud.url, arm.partId, arm.credentials.cloud.api_key));
  await arm.edit(armConfig);
  await main.edit(mainConfig());
  armServer = await arm.start();
  mainServer = await main.start();
}, 120_000);

afterAll(async () => {
  await mainServer?.stop();
  await armServer?.stop();
  main?.remove();
  arm?.remove();
  await cloud?.stop();
});

const readings = async (name: string) => {
  const client = createClient(SensorService, createGrpcTransport({ baseUrl: mainServer.url }));
  return toJson(GetReadingsResponseSchema, await client.getReadings({ name })) as { readings: Record<string, unknown> };
};
const armStatus = (state: string, error?: RegExp) => when(mainServer.url, "rdk:remote:/arm", state, error);

describe("a remote part reached through svc-cloud", () => {
  it("is dialled over WebRTC when its fqdn does not resolve, its sensor listed and read through the main part", async () => {
    expect(armFqdn).toMatch(/^arm\..*\.localhost$/);
    await eventually(() => armStatus("READY"), "the remote connected through svc-cloud", slow);
    expect(mainServer.stdout()).toContain("remote arm connected over WebRTC through svc-cloud");
    const { resources } = await robotClient(mainServer.url).resourceNames({});
    expect(resources.map(nameHere)).toEqual(expect.arrayContaining([`${sensor}/arm:temp`, `${motor}/arm:m1`, `${motor}/arm:m2`, `${base}/rover`]));
    expect(resources.find((r) => r.name === "temp")).toMatchObject({ remotePath: ["arm"] });
    expect(await readings("arm:temp")).toEqual({ readings: { celsius: 21.5 } });
    expect(await readings("temp")).toEqual({ readings: { celsius: 21.5 } });
  });

  it("lets a base of the main part drive the remote's motors, through their typed stand-ins on the same connection", async () => {
    await eventually(() => when(mainServer.url, `${base}/rover`, "READY"), "the base on the remote's motors");
    const rover = createClient(BaseService, createGrpcTransport({ baseUrl: mainServer.url }));
    const onArm = createClient(MotorService, createGrpcTransport({ baseUrl: armServer.url }));
    await rover.setPower({ name: "rover", linear: { x: 0, y: 0.5, z: 0 }, angular: { x: 0, y: 0, z: 0 } });
    expect(await onArm.isPowered({ name: "m1" })).toMatchObject({ isOn: true, powerPct: 0.5 });
    expect(await onArm.isPowered({ name: "m2" })).toMatchObject({ isOn: true, powerPct: 0.5 });
    await rover.stop({ name: "rover" });
    expect(await onArm.isPowered({ name: "m1" })).toMatchObject({ isOn: false });
  });

  it("comes back when the remote is killed and started again", async () => {
    await armServer.stop("SIGKILL");
    const down = await eventually(() => armStatus("UNHEALTHY"), "the remote unavailable", slow);
    expect(down.error).toMatch(/^unavailable: /);
    await expect(readings("arm:temp")).rejects.toThrow(/remote arm is unavailable/);
    armServer = await arm.start();
    await eventually(() => armStatus("READY"), "the remote back through svc-cloud", slow);
    expect(await readings("arm:temp")).toEqual({ readings: { celsius: 21.5 } });
    expect(mainServer.stdout()).toContain("remote arm is reachable again over WebRTC through svc-cloud");
  });

  it("signs in to the remote with the entry's API key inside the connection, and says when the key is refused", async () => {
    await arm.edit(withKey);
    const asked = await eventually(() => armStatus("UNHEALTHY", /asks for credentials/), "the remote asking for a key", slow);
    expect(asked.error).toMatch(/^unavailable: it asks for credentials \(give it "auth"\)/);
    await main.edit(mainConfig({ auth: { entity: key.id, credentials: { type: "api-key", payload: key.key } } }));
    await eventually(() => armStatus("READY"), "the remote signed in to over WebRTC", slow);
    expect(await readings("arm:temp")).toEqual({ readings: { celsius: 21.5 } });
    await main.edit(mainConfig({ auth: { entity: key.id, credentials: { type: "api-key", payload: "not-the-key" } } }));
    const refused = await eventually(() => armStatus("UNHEALTHY", /refused the credentials/), "the wrong key refused", slow);
    expect(refused.error).toMatch(/^unavailable: it refused the credentials: /);
    expect(refused.error).not.toContain("not-the-key");
  });
});

// Three real svc-server processes as the parts of one machine: main joins r1, which joins r2. Main
// lists every part's resources with the parts they come through (remote_path), the official SDK
// drives them through main (a sensor read, a motor driven, seen on the part that holds it, and an
// arm, an API main has no client for, passed through as bytes), and main's own resources depend
// on them, by `r1:s1` and by a simple name through the chain, and a base of main's drives r1's
// motors through their typed stand-ins. r1 is
// then killed by its PID: its resources stay listed, unavailable with the reason, calls to them
// fail at once with UNAVAILABLE naming r1, and main's dependents wait saying why; r1 started again
// at the same address brings everything back, main untouched. Last, r1 killed again and removed
// from main's configuration while it is down: gone from main without a trace.
import { Code, ConnectError } from "@connectrpc/connect";
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually.js";
import { dialSdk } from "../helpers/sdk-robot.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";
import { nameHere, remoteFor, robotClient, startPart, statuses, when, type Part } from "./parts.js";

const sensor = "rdk:component:sensor";
const motor = "rdk:component:motor";
const base = "rdk:component:base";
const arm = "rdk:component:arm";

let r2: Part;
let r1: Part;
let main: SvcServerProcess;
let robot: VIAM.RobotClient;

const mainConfig = (remotes: unknown[]) => ({
  remotes,
  components: [
    { name: "near", api: sensor, model: "fake", depends_on: ["r1:s1"] },
    { name: "far", api: sensor, model: "fake", depends_on: ["deep"] },
    { name: "own", api: sensor, model: "fake", attributes: { readings: { own: true } } },
    { name: "rover", api: base, model: "wheeled", attributes: { left: ["r1:m1"], right: ["r1:m2"], width_mm: 300, wheel_circumference_mm: 200 } },
  ],
});

beforeAll(async () => {
  r2 = await startPart({ components: [{ name: "deep", api: sensor, model: "fake", attributes: { readings: { depth: 3 } } }] });
  r1 = await startPart({
    remotes: [remoteFor("r2", r2)],
    components: [
      { name: "s1", api: sensor, model: "fake", attributes: { readings: { celsius: 21.5 } } },
      { name: "m1", api: motor, model: "fake" },
      { name: "m2", api: motor, model: "fake" },
      { name: "a1", api: arm, model: "fake" },
    ],
  });
  main = await startSvcServer(mainConfig([remoteFor("r1", r1)]));
  await eventually(() => when(main.url, `${sensor}/far`, "READY"), "main's sensor depending on r2's, through r1");
  await eventually(() => when(main.url, `${sensor}/near`, "READY"), "main's sensor depending on r1's");
  await eventually(() => when(main.url, `${base}/rover`, "READY"), "main's base on r1's motors");
  robot = await dialSdk(main.sdkHost);
}, 90_000);

afterAll(async () => {
  await robot?.disconnect();
  await main?.stop();
  await r1?.stop();
  await r2?.stop();
});

const readings = (name: string) => new VIAM.SensorClient(robot, name).getReadings();

describe("main with a remote and a remote of the remote", () => {
  it("lists every part's resources, each with the parts it comes through", async () => {
    const { resources } = await robotClient(main.url).resourceNames({});
    expect(resources.map(nameHere).sort()).toEqual(
      [
        `${arm}/r1:a1`,
        `${base}/rover`,
        `${motor}/r1:m1`,
        `${motor}/r1:m2`,
        `${sensor}/far`,
        `${sensor}/near`,
        `${sensor}/own`,
        `${sensor}/r1:r2:deep`,
        `${sensor}/r1:s1`,
      ].sort(),
    );
    expect(resources.find((r) => r.name === "deep")).toMatchObject({ name: "deep", remotePath: ["r1", "r2"] });
    expect(resources.find((r) => r.name === "own")).toMatchObject({ remotePath: [] });
    expect((await robot.resourceNames()).map((n) => n.name).sort()).toEqual(["a1", "deep", "far", "m1", "m2", "near", "own", "rover", "s1"]);
    const status = await statuses(main.url);
    expect(status.get("rdk:remote:/r1")).toEqual({ state: "READY", error: "" });
  });

  it("drives them through main with the official SDK: a sensor read, a motor driven on the part that holds it", async () => {
    expect(await readings("s1")).toEqual({ celsius: 21.5 });
    expect(await readings("r1:s1")).toEqual({ celsius: 21.5 });
    expect(await readings("deep")).toEqual({ depth: 3 });
    const elbow = new VIAM.MotorClient(robot, "m1");
    await elbow.setPower(0.4);
    const onR1 = await dialSdk(r1.process.sdkHost);
    try {
      expect(await new VIAM.MotorClient(onR1, "m1").isPowered()).toEqual([true, 0.4]);
      await elbow.stop();
      expect(await new VIAM.MotorClient(onR1, "m1").isPowered()).toEqual([false, 0]);
    } finally {
      await onR1.disconnect();
    }
  });

  it("passes calls of an API main has no client for through as bytes", async () => {
    const onR1 = await dialSdk(r1.process.sdkHost);
    try {
      const direct = await new VIAM.ArmClient(onR1, "a1").getEndPosition();
      expect(await new VIAM.ArmClient(robot, "a1").getEndPosition()).toEqual(direct);
      const ping = VIAM.Struct.fromJson({ ping: 1 });
      expect(await new VIAM.ArmClient(robot, "a1").doCommand(ping)).toEqual(await new VIAM.ArmClient(onR1, "a1").doCommand(ping));
    } finally {
      await onR1.disconnect();
    }
  });

  it("lets a base of main's drive r1's motors, through their typed stand-ins", async () => {
    const rover = new VIAM.BaseClient(robot, "rover");
    const onR1 = await dialSdk(r1.process.sdkHost);
    try {
      await rover.setPower({ x: 0, y: 0.5, z: 0 }, { x: 0, y: 0, z: 0 });
      expect(await new VIAM.MotorClient(onR1, "m1").isPowered()).toEqual([true, 0.5]);
      expect(await new VIAM.MotorClient(onR1, "m2").isPowered()).toEqual([true, 0.5]);
      await rover.stop();
      expect(await new VIAM.MotorClient(onR1, "m1").isPowered()).toEqual([false, 0]);
    } finally {
      await onR1.disconnect();
    }
  });

  it("follows what the remotes list: a resource added on r2 appears on main through r1, and goes when it goes", async () => {
    const deep = { name: "deep", api: sensor, model: "fake", attributes: { readings: { depth: 3 } } };
    const deeper = { name: "deeper", api: sensor, model: "fake", attributes: { readings: { depth: 4 } } };
    const listed = async () => (await robotClient(main.url).resourceNames({})).resources.map(nameHere);
    r2.process.writeConfig({ ...r2.config, components: [deep, deeper] });
    await eventually(async () => ((await listed()).includes(`${sensor}/r1:r2:deeper`) ? true : undefined), "r2's new sensor on main");
    expect(await readings("deeper")).toEqual({ depth: 4 });
    r2.process.writeConfig({ ...r2.config, components: [deep] });
    await eventually(async () => ((await listed()).includes(`${sensor}/r1:r2:deeper`) ? undefined : true), "r2's removed sensor gone from main");
  });

  it("keeps a killed remote's resources listed as unavailable, fails their calls at once, and brings all back when it returns", async () => {
    await r1.kill();
    const down = /^remote r1 is unavailable: /;
    await eventually(() => when(main.url, `${sensor}/r1:s1`, "UNHEALTHY", down), "r1's sensor unavailable on main");
    const status = await statuses(main.url);
    expect(status.get(`${motor}/r1:m1`)).toMatchObject({ state: "UNHEALTHY", error: expect.stringMatching(down) });
    expect(status.get("rdk:remote:/r1")).toMatchObject({ state: "UNHEALTHY", error: expect.stringMatching(/^unavailable: /) });
    expect(status.get(`${sensor}/near`)).toMatchObject({
      state: "UNCONFIGURED",
      error: expect.stringMatching(/^waiting for dependency rdk:component:sensor\/r1:s1 \(UNHEALTHY: remote r1 is unavailable: /),
    });
    expect(status.get(`${sensor}/own`)).toEqual({ state: "READY", error: "" });
    expect((await robotClient(main.url).resourceNames({})).resources.map(nameHere)).toEqual(expect.arrayContaining([`${sensor}/r1:s1`, `${motor}/r1:m1`]));
    const refused = await readings("s1").catch((e: unknown) => e as ConnectError);
    expect(refused).toMatchObject({ code: Code.Unavailable, rawMessage: expect.stringMatching(/remote r1 is unavailable/) });
    expect(await readings("own")).toEqual({ own: true });

    await r1.restart();
    await eventually(() => when(main.url, `${sensor}/near`, "READY"), "main's dependent back");
    await eventually(() => when(main.url, `${sensor}/far`, "READY"), "the chain back");
    await eventually(() => when(main.url, `${base}/rover`, "READY"), "main's base on r1's motors back");
    expect(await readings("s1")).toEqual({ celsius: 21.5 });
    expect(await readings("deep")).toEqual({ depth: 3 });
    expect((await statuses(main.url)).get("rdk:remote:/r1")).toEqual({ state: "READY", error: "" });
  });

  it("lets a remote that is down be removed from the configuration", async () => {
    await r1.kill();
    await eventually(() => when(main.url, "rdk:remote:/r1", "UNHEALTHY"), "r1 unavailable");
    main.writeConfig({ components: [{ name: "own", api: sensor, model: "fake", attributes: { readings: { own: true } } }] });
    await eventually(async () => ([...(await statuses(main.url)).keys()].some((name) => name.includes("r1")) ? undefined : true), "r1 gone from main");
    expect([...(await statuses(main.url)).keys()]).toEqual([`${sensor}/own`]);
    expect(main.stdout()).toMatch(/"msg":"remote r1 removed"/);
  });
});

// The official SDK against the core running in XS, through the host shim: the SDK speaks
// gRPC-web over HTTP/1.1 to the shim, which only moves the bytes into one XS worker running the
// MCU bundle (codec, dispatcher, handlers, graph and models on hal/sim inside XS).
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VIAM_API_VERSION } from "../../targets/linux/server/robot/version.js";
import { startMcuShim, type McuShim } from "../../tools/mcu-shim/mcu-shim.js";
import { eventually } from "../helpers/eventually.js";
import { dialSdk, fullName } from "../helpers/sdk-robot.js";

const config = {
  components: [
    { name: "temp", api: "rdk:component:sensor", model: "fake", attributes: { readings: { celsius: 21.5, label: "lab", ok: true, nested: { a: [1, null] } } } },
    { name: "pins", api: "rdk:component:board", model: "fake", attributes: {} },
    { name: "wheel", api: "rdk:component:motor", model: "fake", attributes: { max_rpm: 60, encoder: "wheel-ticks", ticks_per_rotation: 100 } },
    { name: "wheel-ticks", api: "rdk:component:encoder", model: "fake", attributes: {} },
    { name: "arm", api: "rdk:component:servo", model: "fake", attributes: {}, frame: { parent: "world", translation: { x: 0, y: 0, z: 100 } } },
    {
      name: "thing",
      api: "rdk:component:generic",
      model: "fake",
      attributes: {},
      frame: { parent: "arm", translation: { x: 50, y: 0, z: 0 }, orientation: { type: "euler_angles", value: { yaw: Math.PI / 2 } }, geometry: { type: "sphere", r: 10 } },
    },
    { name: "stranded", api: "rdk:component:motor", model: "gpio", attributes: { board: "missing-board", pins: { pwm: "12", dir: "16" } } },
  ],
};

let shim: McuShim;
let robot: VIAM.RobotClient;

beforeAll(async () => {
  shim = await startMcuShim({ config });
  robot = await dialSdk(shim.sdkHost);
});

afterAll(async () => {
  await robot?.disconnect();
  await shim?.close();
});

describe("the official SDK against the core in XS", () => {
  it("boots from the stored configuration", () => {
    expect(shim.boot).toMatchObject({ outcome: "applied" });
    expect(shim.boot.added).toHaveLength(config.components.length);
  });

  it("lists every configured resource that runs", async () => {
    expect((await robot.resourceNames()).map(fullName).sort()).toEqual([
      "rdk:component:board/pins",
      "rdk:component:encoder/wheel-ticks",
      "rdk:component:generic/thing",
      "rdk:component:motor/wheel",
      "rdk:component:sensor/temp",
      "rdk:component:servo/arm",
    ]);
  });

  it("reads the fake sensor's readings, and DoCommand echoes", async () => {
    const sensor = new VIAM.SensorClient(robot, "temp");
    expect(await sensor.getReadings()).toEqual({ celsius: 21.5, label: "lab", ok: true, nested: { a: [1, null] } });
    expect(await sensor.doCommand(VIAM.Struct.fromJson({ ping: "pong", n: 3 }))).toEqual({ ping: "pong", n: 3 });
  });

  it("sets and reads board pins on the simulated board inside XS", async () => {
    const board = new VIAM.BoardClient(robot, "pins");
    await board.setGPIO("11", true);
    expect(await board.getGPIO("11")).toBe(true);
    await board.setGPIO("11", false);
    expect(await board.getGPIO("11")).toBe(false);
    await board.setPWM("13", 0.25);
    expect(await board.getPWM("13")).toBeCloseTo(0.25, 6);
    await board.setPWMFrequency("13", 1000);
    expect(await board.getPWMFrequency("13")).toBe(1000);
  });

  it("runs the fake motor for its revolutions on the XS side's clock, which the shim drives", async () => {
    const motor = new VIAM.MotorClient(robot, "wheel");
    const encoder = new VIAM.EncoderClient(robot, "wheel-ticks");
    const start = await motor.getPosition();
    const [startTicks] = await encoder.getPosition();
    let done = false;
    const going = motor.goFor(120, 1).finally(() => (done = true));
    let seenMoving = false;
    while (!done) {
      seenMoving ||= await motor.isMoving();
      await new Promise((r) => setTimeout(r, 20));
    }
    await going;
    expect(seenMoving).toBe(true);
    expect(await motor.isMoving()).toBe(false);
    expect((await motor.getPosition()) - start).toBeCloseTo(1, 6);
    const [ticks, type] = await encoder.getPosition();
    expect(ticks - startTicks).toBe(100);
    expect(type).toBe(VIAM.encoderApi.PositionType.TICKS_COUNT);
  });

  it("moves the servo, and refuses an angle out of range with INVALID_ARGUMENT", async () => {
    const servo = new VIAM.ServoClient(robot, "arm");
    await servo.move(90);
    expect(await servo.getPosition()).toBe(90);
    expect(await servo.move(270).catch((e: unknown) => e)).toMatchObject({ code: VIAM.Code.InvalidArgument });
  });

  it("reports the machine RUNNING, each resource's state, and the one waiting for a board with its error", async () => {
    const status = await robot.getMachineStatus();
    expect(status.state).toBe(VIAM.robotApi.GetMachineStatusResponse_State.RUNNING);
    const byName = new Map(status.resources.map((r) => [fullName(r.name!), r]));
    expect(byName.get("rdk:component:sensor/temp")?.state).toBe(VIAM.robotApi.ResourceStatus_State.READY);
    const stranded = byName.get("rdk:component:motor/stranded");
    expect(stranded?.state).toBe(VIAM.robotApi.ResourceStatus_State.UNCONFIGURED);
    expect(stranded?.error).toContain('missing dependency "missing-board"');
    expect(status.config?.revision).toMatch(/^[0-9a-f]{12}$/);
    expect(status.config?.lastUpdated).toBeDefined();
  });

  it("says it is svc-mcu, speaking the server's API version", async () => {
    const version = await robot.getVersion();
    expect(version.platform).toBe("svc-mcu");
    expect(version.apiVersion).toBe(VIAM_API_VERSION);
  });

  it("answers NOT_FOUND naming what it looked for, and UNIMPLEMENTED for what the MCU does not serve", async () => {
    const missing = await new VIAM.SensorClient(robot, "nope").getReadings().catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: VIAM.Code.NotFound, rawMessage: 'no rdk:component:sensor named "nope"' });
    const cloud = await robot.getCloudMetadata().catch((e: unknown) => e);
    expect(cloud).toMatchObject({ code: VIAM.Code.Unimplemented });
  });

  it("answers the frame system and carries poses between frames, as svc-server does", async () => {
    const frames = await robot.frameSystemConfig([]);
    expect(frames.map((f) => [f.frame?.referenceFrame, f.frame?.poseInObserverFrame?.referenceFrame])).toEqual([["arm", "world"], ["thing", "arm"]]);
    expect(frames[1]!.frame?.poseInObserverFrame?.pose?.toJson()).toEqual({ x: 50, oZ: 1, theta: 90 });
    expect(frames[1]!.frame?.physicalObject?.geometryType).toMatchObject({ case: "sphere", value: { radiusMm: 10 } });
    const source = new VIAM.commonApi.PoseInFrame({ referenceFrame: "thing", pose: new VIAM.commonApi.Pose({ x: 10, oZ: 1 }) });
    const pose = (await robot.transformPose(source, "world", [])).pose!;
    // 10 mm along the thing's x, which its quarter turn points along the world's y.
    expect([pose.x, pose.y, pose.z].map((v) => Math.round(v * 1e6) / 1e6)).toEqual([50, 10, 100]);
  });

  it("lists operations and stops every actuator", async () => {
    expect(await robot.getOperations()).toEqual([]);
    const motor = new VIAM.MotorClient(robot, "wheel");
    const going = motor.goFor(60, 100).catch((e: unknown) => e);
    const ops = await eventually(async () => {
      const listed = await robot.getOperations();
      return listed.length > 0 ? listed : undefined;
    }, "the GoFor listed as an operation");
    expect(ops.map((o) => o.method)).toEqual(["/viam.component.motor.v1.MotorService/GoFor"]);
    expect(ops[0]!.arguments?.toJson()).toMatchObject({ name: "wheel", rpm: 60, revolutions: 100 });
    await robot.stopAll();
    expect(await going).toMatchObject({ code: VIAM.Code.Canceled });
    expect(await motor.isMoving()).toBe(false);
  });
});

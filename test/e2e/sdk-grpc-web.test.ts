// The official SDK over gRPC-web (HTTP/1.1 fetch, as in a browser) against the real svc-server
// process: it lists the configured resources, reads a sensor, drives board pins, runs a fake
// motor while watching its position and its encoder, moves a servo, and reads the machine's
// status, where a resource whose dependency is missing is reported with its error.
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialSdk, fullName } from "../helpers/sdk-robot.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";

const config = {
  components: [
    { name: "temp", api: "rdk:component:sensor", model: "fake", attributes: { readings: { celsius: 21.5, label: "lab", ok: true } } },
    { name: "pins", api: "rdk:component:board", model: "fake", attributes: {} },
    { name: "wheel", api: "rdk:component:motor", model: "fake", attributes: { max_rpm: 60, encoder: "wheel-ticks", ticks_per_rotation: 100 } },
    { name: "wheel-ticks", api: "rdk:component:encoder", model: "fake", attributes: {} },
    { name: "arm", api: "rdk:component:servo", model: "fake", attributes: { max_angle_deg: 180 } },
    {
      name: "stranded",
      api: "rdk:component:motor",
      model: "gpio",
      attributes: { board: "missing-board", pins: { pwm: "12", dir: "16" } },
    },
  ],
};

let server: SvcServerProcess;
let robot: VIAM.RobotClient;

beforeAll(async () => {
  server = await startSvcServer(config);
  robot = await dialSdk(server.sdkHost);
});

afterAll(async () => {
  await robot?.disconnect();
  await server?.stop();
});

describe("the official SDK over gRPC-web", () => {
  it("lists every configured resource that runs", async () => {
    const names = (await robot.resourceNames()).map(fullName).sort();
    expect(names).toEqual([
      "rdk:component:board/pins",
      "rdk:component:encoder/wheel-ticks",
      "rdk:component:motor/wheel",
      "rdk:component:sensor/temp",
      "rdk:component:servo/arm",
    ]);
  });

  it("reads the sensor's configured readings, and DoCommand echoes", async () => {
    const sensor = new VIAM.SensorClient(robot, "temp");
    expect(await sensor.getReadings()).toEqual({ celsius: 21.5, label: "lab", ok: true });
    expect(await sensor.doCommand(VIAM.Struct.fromJson({ ping: "pong", n: 3 }))).toEqual({ ping: "pong", n: 3 });
  });

  it("drives the board's pins: GPIO level, PWM duty and PWM frequency hold what was set", async () => {
    const board = new VIAM.BoardClient(robot, "pins");
    await board.setGPIO("11", true);
    expect(await board.getGPIO("11")).toBe(true);
    await board.setGPIO("11", false);
    expect(await board.getGPIO("11")).toBe(false);

    await board.setPWM("13", 0.25);
    expect(await board.getPWM("13")).toBeCloseTo(0.25, 6);
    expect(await board.getPWMFrequency("13")).toBe(800);
    await board.setPWMFrequency("13", 1000);
    expect(await board.getPWMFrequency("13")).toBe(1000);
    expect(await board.getPWM("13")).toBeCloseTo(0.25, 6);
  });

  it("runs the motor for its revolutions while its position and its encoder's ticks rise, then it stops", async () => {
    const motor = new VIAM.MotorClient(robot, "wheel");
    const encoder = new VIAM.EncoderClient(robot, "wheel-ticks");
    const startPosition = await motor.getPosition();
    const [startTicks] = await encoder.getPosition();
    expect(await motor.isMoving()).toBe(false);

    let done = false;
    const going = motor.goFor(60, 2).finally(() => (done = true));
    const seen: Array<{ moving: boolean; position: number; ticks: number }> = [];
    while (!done) {
      const moving = await motor.isMoving();
      const position = (await motor.getPosition()) - startPosition;
      const [ticks] = await encoder.getPosition();
      seen.push({ moving, position, ticks: ticks - startTicks });
      await new Promise((r) => setTimeout(r, 20));
    }
    await going;

    // Seen moving part of the way, position and ticks only ever rising.
    const midway = seen.filter((s) => s.moving && s.position > 0 && s.position < 2);
    expect(midway.length).toBeGreaterThan(0);
    expect(midway.some((s) => s.ticks > 0 && s.ticks < 200)).toBe(true);
    for (let i = 1; i < seen.length; i++) {
      expect(seen[i]!.position).toBeGreaterThanOrEqual(seen[i - 1]!.position);
      expect(seen[i]!.ticks).toBeGreaterThanOrEqual(seen[i - 1]!.ticks);
    }
    // The encoder counts what the motor turned, 100 ticks a revolution: read just after the
    // position, it has at least the ticks of that position.
    for (const s of seen) expect(s.ticks).toBeGreaterThanOrEqual(s.position * 100 - 1);

    expect(await motor.isMoving()).toBe(false);
    expect((await motor.getPosition()) - startPosition).toBeCloseTo(2, 6);
    const [endTicks, positionType] = await encoder.getPosition();
    expect(endTicks - startTicks).toBe(200);
    expect(positionType).toBe(VIAM.encoderApi.PositionType.TICKS_COUNT);
    expect(await motor.isPowered()).toEqual([false, 0]);
  });

  it("moves the servo to its angle, and refuses an angle out of range", async () => {
    const servo = new VIAM.ServoClient(robot, "arm");
    await servo.move(90);
    expect(await servo.getPosition()).toBe(90);
    expect(await servo.isMoving()).toBe(false);
    const error = await servo.move(270).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: VIAM.Code.InvalidArgument });
    expect(await servo.getPosition()).toBe(90);
  });

  it("reports the machine RUNNING, its resources READY, and the one with a missing dependency with its error", async () => {
    const status = await robot.getMachineStatus();
    expect(status.state).toBe(VIAM.robotApi.GetMachineStatusResponse_State.RUNNING);
    const byName = new Map(status.resources.map((r) => [fullName(r.name!), r]));
    for (const name of [
      "rdk:component:board/pins",
      "rdk:component:encoder/wheel-ticks",
      "rdk:component:motor/wheel",
      "rdk:component:sensor/temp",
      "rdk:component:servo/arm",
    ]) {
      expect(byName.get(name)?.state, name).toBe(VIAM.robotApi.ResourceStatus_State.READY);
      expect(byName.get(name)?.error, name).toBe("");
    }
    const stranded = byName.get("rdk:component:motor/stranded");
    expect(stranded?.state).toBe(VIAM.robotApi.ResourceStatus_State.UNCONFIGURED);
    expect(stranded?.error).toContain('missing dependency "missing-board"');
    expect(status.config?.revision).toMatch(/^[0-9a-f]{12}$/);
    expect(stranded?.revision).toBe(status.config?.revision);
  });

  it("answers NOT_FOUND, naming what it looked for, for a resource that is not there", async () => {
    const error = await new VIAM.SensorClient(robot, "nope").getReadings().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: VIAM.Code.NotFound, rawMessage: 'no rdk:component:sensor named "nope"' });
  });
});

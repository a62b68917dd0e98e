// End to end in one process: the component services on the real API transport, driven by the
// official SDK's component clients over gRPC-web, the way a user's program would drive svc.
import { ConnectError, createClient, type ConnectRouter } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MotorService } from "../../../proto/gen/component/motor/v1/motor_pb.js";
import { RobotService } from "../../../proto/gen/robot/v1/robot_pb.js";
import { Code } from "../../../core/index.js";
import { createNodeClock } from "../../../targets/linux/logging/index.js";
import { registerComponentServices } from "../../../targets/linux/server/rpc/index.js";
import { createApiServer, type ApiServer } from "../../../targets/linux/server/transport/index.js";
import { createRpcMachine, entry, type RpcMachine } from "./rpc-machine.js";

let machine: RpcMachine;
let server: ApiServer;
let robot: VIAM.RobotClient;
const driven: string[] = [];
const sessions: string[] = [];

const readings = { celsius: 21.5, label: "bench", ok: true, where: { x: 1, tags: ["a", 2] } };

beforeAll(async () => {
  machine = await createRpcMachine(
    [
      entry("sensor", "temp", { readings }),
      entry("board", "pi", { analogs: [{ name: "light", pin: "30" }], digital_interrupts: [{ name: "pulses", pin: "21" }] }),
      entry("encoder", "enc"),
      entry("motor", "m", { max_rpm: 600, encoder: "enc", ticks_per_rotation: 100 }),
      entry("motor", "waiting", { encoder: "missing" }),
      entry("servo", "arm", { speed_deg_per_sec: 3600 }),
      entry("movement_sensor", "imu"),
      entry("power_sensor", "supply"),
      entry("generic", "thing"),
    ],
    { clock: createNodeClock(), services: [entry("generic_service", "helper")], board: { loops: [["20", "21"]] } },
  );
  server = await createApiServer({
    bindAddress: "127.0.0.1:0",
    routes(router: ConnectRouter) {
      registerComponentServices(router, machine.lookup, { onActuatorDriven: (session, name) => {
          driven.push(name);
          sessions.push(session);
        }, });
      // The one RobotService call the SDK makes when it dials (and as its heartbeat).
      router.service(RobotService, { getOperations: () => ({}) });
    },
  });
  robot = new VIAM.RobotClient();
  await robot.dial({ host: `http://localhost:${server.port}`, noReconnect: true });
});

afterAll(async () => {
  await robot?.disconnect();
  await server?.close();
  await machine?.close();
});

/** Asks `check` until it answers true, at most `tries` times. */
async function eventually(check: () => Promise<boolean>, tries = 200): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return false;
}

describe("the official SDK's component clients", () => {
  it("read a sensor", async () => {
    expect(await new VIAM.SensorClient(robot, "temp").getReadings()).toEqual(readings);
  });

  it("set and read board pins, PWM duty and frequency, an analog reader and an interrupt count", async () => {
    const board = new VIAM.BoardClient(robot, "pi");
    await board.setGPIO("11", true);
    expect(await board.getGPIO("11")).toBe(true);
    expect(machine.sim.pins.read("11")).toBe(1);
    await board.setPWMFrequency("12", 1600);
    await board.setPWM("12", 0.25);
    expect(await board.getPWM("12")).toBe(0.25);
    expect(await board.getPWMFrequency("12")).toBe(1600);
    expect(machine.sim.pwm("12")?.hz).toBe(1600);
    machine.sim.setAnalog("30", 1);
    expect(await board.readAnalogReader("light")).toMatchObject({ value: 1023, minRange: 0 });
    await board.setGPIO("20", true);
    await board.setGPIO("20", false);
    await board.setGPIO("20", true);
    expect(await board.getDigitalInterruptValue("pulses")).toBe(2);
  });

  it("run a motor with GoFor and watch its position and its encoder", async () => {
    const motor = new VIAM.MotorClient(robot, "m");
    const going = motor.goFor(120, 2);
    expect(await eventually(async () => (await motor.getPosition()) > 0)).toBe(true);
    expect(await motor.isMoving()).toBe(true);
    await going;
    expect(await motor.getPosition()).toBeCloseTo(2, 6);
    expect(await motor.isMoving()).toBe(false);
    expect(await new VIAM.EncoderClient(robot, "enc").getPosition()).toEqual([200, VIAM.encoderApi.PositionType.TICKS_COUNT]);
    expect(driven).toContain("rdk:component:motor/m");
  });

  it("stop the motor when the client abandons its GoFor", async () => {
    const motor = new VIAM.MotorClient(robot, "m");
    const abandon = new AbortController();
    const going = motor.goFor(600, 1000, {}, { signal: abandon.signal }).catch((e: unknown) => e);
    expect(await eventually(() => motor.isMoving())).toBe(true);
    abandon.abort();
    await going;
    expect(await eventually(async () => !(await motor.isMoving()))).toBe(true);
    const where = await motor.getPosition();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await motor.getPosition()).toBe(where);
  });

  it("move a servo, read movement and power sensors, and echo DoCommand", async () => {
    const servo = new VIAM.ServoClient(robot, "arm");
    await servo.move(90);
    expect(await servo.getPosition()).toBe(90);
    const imu = new VIAM.MovementSensorClient(robot, "imu");
    expect(await imu.getCompassHeading()).toBe(25);
    expect(await imu.getPosition()).toMatchObject({ coordinate: { latitude: 40.7, longitude: -73.98 } });
    expect(await imu.getLinearAcceleration()).toMatchObject({ x: 0, y: 0, z: 9.81 });
    const supply = new VIAM.PowerSensorClient(robot, "supply");
    expect(await supply.getVoltage()).toEqual([12, false]);
    expect(await supply.getPower()).toBe(6);
    const command = { say: "hi", n: 3, nested: { list: [1, "two"] } };
    expect(await new VIAM.GenericComponentClient(robot, "thing").doCommand(VIAM.Struct.fromJson(command))).toEqual(command);
    expect(await new VIAM.GenericServiceClient(robot, "helper").doCommand(VIAM.Struct.fromJson(command))).toEqual(command);
    expect(await new VIAM.SensorClient(robot, "temp").doCommand(VIAM.Struct.fromJson(command))).toEqual(command);
  });

  it("receive NOT_FOUND, UNAVAILABLE and INVALID_ARGUMENT with their messages", async () => {
    const missing = await new VIAM.SensorClient(robot, "nope").getReadings().catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: Code.NotFound, rawMessage: 'no rdk:component:sensor named "nope"' });
    const waiting = await new VIAM.MotorClient(robot, "waiting").isMoving().catch((e: unknown) => e);
    expect(waiting).toMatchObject({ code: Code.Unavailable });
    expect((waiting as { rawMessage: string }).rawMessage).toMatch(/^rdk:component:motor\/waiting is not ready: .*missing/);
    const badPin = await new VIAM.BoardClient(robot, "pi").setGPIO("", true).catch((e: unknown) => e);
    expect(badPin).toMatchObject({ code: Code.InvalidArgument, rawMessage: "pin: must not be empty" });
    const badDuty = await new VIAM.BoardClient(robot, "pi").setPWM("12", 2).catch((e: unknown) => e);
    expect(badDuty).toMatchObject({ code: Code.InvalidArgument, rawMessage: "duty cycle must be from 0 to 1, got 2" });
  });
});

describe("a gRPC client over HTTP/2", () => {
  it("carries its session to the actuator hook, and stops the motor when it cancels GoFor", async () => {
    const motor = createClient(MotorService, createGrpcTransport({ baseUrl: server.url }));
    const headers = { "viam-sid": "session-42" };
    const abandon = new AbortController();
    const going = motor.goFor({ name: "m", rpm: 600, revolutions: 1000 }, { headers, signal: abandon.signal }).catch((e: unknown) => e);
    expect(await eventually(async () => (await motor.isMoving({ name: "m" })).isMoving)).toBe(true);
    expect(sessions[sessions.length - 1]).toBe("session-42");
    abandon.abort();
    expect(ConnectError.from(await going).code).toBe(Code.Canceled);
    expect(await eventually(async () => !(await motor.isMoving({ name: "m" })).isMoving)).toBe(true);
    const missing = await motor.stop({ name: "nope" }).catch((e: unknown) => ConnectError.from(e));
    expect(missing).toMatchObject({ code: Code.NotFound, rawMessage: 'no rdk:component:motor named "nope"' });
  });
});

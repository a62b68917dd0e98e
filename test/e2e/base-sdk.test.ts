// The base API on the real svc-server, through the official SDK's BaseClient: the fake base moves
// for the time its motion implies, says so in IsMoving and stops when told; the wheeled base
// turns the machine's motors, which the SDK's MotorClient and BoardClient read back (GoFor
// revolutions, powers, PWM on a gpio motor's pins); StopAll and cancelling end a move in flight;
// a wheeled base with bad attributes is refused naming the attribute.
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually.js";
import { dialSdk, fullName } from "../helpers/sdk-robot.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";

const MOVE_STRAIGHT = "/viam.component.base.v1.BaseService/MoveStraight";
const geometry = { width_mm: 300, wheel_circumference_mm: 200 };
const config = {
  components: [
    { name: "rover", api: "rdk:component:base", model: "fake" },
    { name: "left", api: "rdk:component:motor", model: "fake", attributes: { max_rpm: 600 } },
    { name: "right", api: "rdk:component:motor", model: "fake", attributes: { max_rpm: 600 } },
    { name: "drive", type: "base", model: "wheeled", attributes: { ...geometry, left: ["left"], right: ["right"] }, depends_on: ["left", "right"] },
    { name: "pins", api: "rdk:component:board", model: "fake" },
    { name: "gpio-left", api: "rdk:component:motor", model: "gpio", attributes: { board: "pins", pins: { pwm: "12", dir: "16" } } },
    { name: "gpio-right", api: "rdk:component:motor", model: "gpio", attributes: { board: "pins", pins: { pwm: "13", dir: "17" } } },
    { name: "gpio-drive", type: "base", model: "wheeled", attributes: { ...geometry, left: ["gpio-left"], right: ["gpio-right"] } },
    { name: "lopsided", type: "base", model: "wheeled", attributes: { ...geometry, left: ["left"], right: ["right", "gpio-right"] } },
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

const still = { x: 0, y: 0, z: 0 };
const forward = (y: number) => ({ x: 0, y, z: 0 });
const turning = (z: number) => ({ x: 0, y: 0, z });

/** The outcome of a call that is left running: "finished" or what it threw. */
const outcomeOf = (call: Promise<unknown>) => call.then(() => "finished", (e: unknown) => e);

const stateOf = async (base: VIAM.BaseClient) =>
  (await base.doCommand(VIAM.Struct.fromJson({ command: "state" }))) as { last: Record<string, unknown> | null; moving: boolean; travelled_mm: number; spun_deg: number };

const powers = (...names: string[]) => Promise.all(names.map(async (name) => (await new VIAM.MotorClient(robot, name).isPowered())[1]));

describe("the base API", () => {
  it("has every base READY, lists the base service, and names the wheeled base's bad attribute", async () => {
    const status = await robot.getMachineStatus();
    const byName = new Map(status.resources.map((r) => [fullName(r.name!), r]));
    for (const name of ["rover", "drive", "gpio-drive"]) {
      expect(byName.get(`rdk:component:base/${name}`)?.state, name).toBe(VIAM.robotApi.ResourceStatus_State.READY);
    }
    const lopsided = byName.get("rdk:component:base/lopsided");
    expect(lopsided?.state).not.toBe(VIAM.robotApi.ResourceStatus_State.READY);
    expect(lopsided?.error).toContain("components[8].attributes.right: must name as many motors as left (1), not 2");
    const subtypes = await robot.resourceRPCSubtypes();
    expect(subtypes.map((s) => `${s.subtype?.namespace}:${s.subtype?.type}:${s.subtype?.subtype} ${s.protoService}`)).toContain(
      "rdk:component:base viam.component.base.v1.BaseService",
    );
  });

  it("answers NOT_FOUND for a base not configured and UNIMPLEMENTED for geometries, naming the base", async () => {
    await expect(new VIAM.BaseClient(robot, "nope").isMoving()).rejects.toMatchObject({ code: VIAM.Code.NotFound });
    await expect(new VIAM.BaseClient(robot, "rover").getGeometries()).rejects.toMatchObject({
      code: VIAM.Code.Unimplemented,
      message: expect.stringContaining("rdk:component:base/rover does not support GetGeometries"),
    });
  });
});

describe("the fake base through BaseClient", () => {
  it("drives a MoveStraight to its end and remembers it", async () => {
    const rover = new VIAM.BaseClient(robot, "rover");
    await rover.moveStraight(100, 1000);
    expect(await rover.isMoving()).toBe(false);
    expect(await stateOf(rover)).toEqual({ last: { method: "MoveStraight", distance_mm: 100, mm_per_sec: 1000 }, moving: false, travelled_mm: 100, spun_deg: 0 });
  });

  it("is moving during a long MoveStraight, which Stop ends where the base got to", async () => {
    const rover = new VIAM.BaseClient(robot, "rover");
    const before = (await stateOf(rover)).travelled_mm;
    const going = outcomeOf(rover.moveStraight(10_000, 10));
    await eventually(async () => ((await rover.isMoving()) ? true : undefined), "the fake base moving");
    await rover.stop();
    expect(await going).toBe("finished");
    expect(await rover.isMoving()).toBe(false);
    const travelled = (await stateOf(rover)).travelled_mm - before;
    expect(travelled).toBeGreaterThanOrEqual(0);
    expect(travelled).toBeLessThan(10_000);
  });

  it("spins, and runs at a velocity or a power until stopped", async () => {
    const rover = new VIAM.BaseClient(robot, "rover");
    const spunBefore = (await stateOf(rover)).spun_deg;
    await rover.spin(-45, 900);
    expect((await stateOf(rover)).spun_deg - spunBefore).toBe(-45);
    await rover.setVelocity(forward(50), turning(10));
    expect(await rover.isMoving()).toBe(true);
    await rover.stop();
    expect(await rover.isMoving()).toBe(false);
    await rover.setPower(forward(-0.5), still);
    expect(await rover.isMoving()).toBe(true);
    expect((await stateOf(rover)).last).toEqual({ method: "SetPower", linear: forward(-0.5), angular: still });
    await rover.stop();
    expect(await rover.isMoving()).toBe(false);
  });

  it("states Viam's fake dimensions and refuses a speed that is not a number", async () => {
    const rover = new VIAM.BaseClient(robot, "rover");
    const properties = await rover.getProperties();
    expect([properties.widthMeters, properties.turningRadiusMeters, properties.wheelCircumferenceMeters]).toEqual([0.6, 0, 3]);
    await expect(rover.moveStraight(100, Number.NaN)).rejects.toMatchObject({
      code: VIAM.Code.InvalidArgument,
      message: expect.stringContaining("mm_per_sec must be a finite number"),
    });
  });
});

describe("the wheeled base through BaseClient, read back through MotorClient", () => {
  it("turns both motors the revolutions of a MoveStraight, then the left back and the right on for a Spin", async () => {
    const drive = new VIAM.BaseClient(robot, "drive");
    const left = new VIAM.MotorClient(robot, "left");
    const right = new VIAM.MotorClient(robot, "right");
    const start = [await left.getPosition(), await right.getPosition()];
    // 200 mm on 200 mm wheels: one revolution each.
    await drive.moveStraight(200, 1000);
    expect((await left.getPosition()) - start[0]!).toBeCloseTo(1, 6);
    expect((await right.getPosition()) - start[1]!).toBeCloseTo(1, 6);
    expect(await drive.isMoving()).toBe(false);
    // A quarter turn on a 300 mm track: 75π mm of wheel travel each, backward on the left.
    await drive.spin(90, 360);
    const quarter = (75 * Math.PI) / 200;
    expect((await left.getPosition()) - start[0]!).toBeCloseTo(1 - quarter, 6);
    expect((await right.getPosition()) - start[1]!).toBeCloseTo(1 + quarter, 6);
  });

  it("sets the motors' powers for SetPower and SetVelocity, and Stop stops them", async () => {
    const drive = new VIAM.BaseClient(robot, "drive");
    await drive.setPower(forward(0.5), still);
    expect(await powers("left", "right")).toEqual([0.5, 0.5]);
    await drive.setPower(still, turning(0.5));
    expect(await powers("left", "right")).toEqual([-0.5, 0.5]);
    // 100 mm/s on 200 mm wheels is 30 rpm, a twentieth of these motors' 600.
    await drive.setVelocity(forward(100), still);
    expect(await powers("left", "right")).toEqual([0.05, 0.05]);
    expect(await drive.isMoving()).toBe(true);
    await drive.stop();
    expect(await powers("left", "right")).toEqual([0, 0]);
    expect(await drive.isMoving()).toBe(false);
    expect(await new VIAM.MotorClient(robot, "left").isMoving()).toBe(false);
  });

  it("lists a MoveStraight in flight as an operation; StopAll ends it CANCELED with the motors stopped", async () => {
    const drive = new VIAM.BaseClient(robot, "drive");
    const going = outcomeOf(drive.moveStraight(100_000, 10));
    const op = await eventually(
      async () => (await robot.getOperations()).find((o) => o.method === MOVE_STRAIGHT && (o.arguments?.toJson() as { name?: string })?.name === "drive"),
      "MoveStraight on drive among the operations",
    );
    expect(op.arguments!.toJson()).toMatchObject({ name: "drive", distanceMm: "100000", mmPerSec: 10 });
    expect(await drive.isMoving()).toBe(true);
    expect(await powers("left", "right")).toEqual([0.005, 0.005]);
    await robot.stopAll();
    expect(await going).toMatchObject({ code: VIAM.Code.Canceled });
    expect(await drive.isMoving()).toBe(false);
    expect(await powers("left", "right")).toEqual([0, 0]);
  });

  it("drives gpio motors' pins on the board for SetPower", async () => {
    const drive = new VIAM.BaseClient(robot, "gpio-drive");
    const board = new VIAM.BoardClient(robot, "pins");
    await drive.setPower(still, turning(-0.4));
    expect(await powers("gpio-left", "gpio-right")).toEqual([0.4, -0.4]);
    expect(await board.getPWM("12")).toBeCloseTo(0.4, 2);
    expect(await board.getGPIO("16")).toBe(true);
    expect(await board.getPWM("13")).toBeCloseTo(0.4, 2);
    expect(await board.getGPIO("17")).toBe(false);
    await drive.stop();
    expect(await board.getPWM("12")).toBe(0);
    expect(await board.getPWM("13")).toBe(0);
    expect(await drive.isMoving()).toBe(false);
  });

  it("states its width and wheel circumference in metres", async () => {
    const properties = await new VIAM.BaseClient(robot, "drive").getProperties();
    expect([properties.widthMeters, properties.turningRadiusMeters, properties.wheelCircumferenceMeters]).toEqual([0.3, 0, 0.2]);
  });
});

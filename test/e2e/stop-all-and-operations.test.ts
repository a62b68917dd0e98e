// StopAll and operations against the real svc-server process, through the official SDK: StopAll
// stops every moving actuator and ends the calls waiting on them; a GoFor in flight is listed by
// GetOperations with its method and arguments, and CancelOperation ends it and stops the motor.
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually.js";
import { dialSdk } from "../helpers/sdk-robot.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";

const GO_FOR = "/viam.component.motor.v1.MotorService/GoFor";
const config = {
  components: [
    { name: "left", api: "rdk:component:motor", model: "fake", attributes: { max_rpm: 60 } },
    { name: "right", api: "rdk:component:motor", model: "fake", attributes: { max_rpm: 60 } },
    // Slow enough that a move is still under way when StopAll comes.
    { name: "arm", api: "rdk:component:servo", model: "fake", attributes: { speed_deg_per_sec: 1 } },
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

/** The outcome of a call that is left running: "finished" or what it threw. */
const outcomeOf = (call: Promise<unknown>) => call.then(() => "finished", (e: unknown) => e);

const operationOn = (method: string, name: string) =>
  eventually(
    async () => (await robot.getOperations()).find((o) => o.method === method && (o.arguments?.toJson() as { name?: string })?.name === name),
    `${method} on ${name} among the operations`,
  );

describe("StopAll", () => {
  it("stops a motor turning at a power, a GoFor and a servo move in flight", async () => {
    const left = new VIAM.MotorClient(robot, "left");
    const right = new VIAM.MotorClient(robot, "right");
    const arm = new VIAM.ServoClient(robot, "arm");
    await left.setPower(0.5);
    const going = outcomeOf(right.goFor(60, 1000));
    const moving = outcomeOf(arm.move(170));
    await operationOn(GO_FOR, "right");
    await eventually(async () => ((await arm.isMoving()) ? true : undefined), "the servo moving");
    expect(await left.isMoving()).toBe(true);
    expect(await right.isMoving()).toBe(true);

    await robot.stopAll();

    expect(await left.isMoving()).toBe(false);
    expect(await right.isMoving()).toBe(false);
    expect(await arm.isMoving()).toBe(false);
    // StopAll also cancels the calls in flight.
    expect(await going).toMatchObject({ code: VIAM.Code.Canceled });
    expect(await moving).toMatchObject({ code: VIAM.Code.Canceled });
    expect(await arm.getPosition()).toBeLessThan(170);
    // Nothing of theirs is left running.
    expect((await robot.getOperations()).filter((o) => !o.method.endsWith("/GetOperations"))).toEqual([]);
  });
});

describe("operations", () => {
  it("lists a GoFor in flight with its arguments, and CancelOperation ends it and stops the motor", async () => {
    const left = new VIAM.MotorClient(robot, "left");
    const going = outcomeOf(left.goFor(30, 500));
    const op = await operationOn(GO_FOR, "left");
    expect(op.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(op.arguments!.toJson()).toMatchObject({ name: "left", rpm: 30, revolutions: 500 });
    expect(op.started!.toDate().getTime()).toBeGreaterThan(0);
    expect(await left.isMoving()).toBe(true);

    await robot.cancelOperation(op.id);

    expect(await going).toMatchObject({ code: VIAM.Code.Canceled });
    expect(await left.isMoving()).toBe(false);
    expect((await robot.getOperations()).some((o) => o.id === op.id)).toBe(false);
    expect(await robot.cancelOperation(op.id).catch((e: unknown) => e)).toMatchObject({ code: VIAM.Code.NotFound });
  });

  it("BlockForOperation returns when the operation ends", async () => {
    const right = new VIAM.MotorClient(robot, "right");
    const going = outcomeOf(right.goFor(60, 1000));
    const op = await operationOn(GO_FOR, "right");
    let unblocked = false;
    const blocked = robot.blockForOperation(op.id).then(() => (unblocked = true));
    await eventually(async () => (await robot.getOperations()).find((o) => o.method.endsWith("/BlockForOperation")), "BlockForOperation in flight");
    expect(unblocked).toBe(false);
    await right.stop();
    await blocked;
    expect(unblocked).toBe(true);
    // A stop ends the GoFor: it returns as a finished move, not as an error.
    expect(await going).toBe("finished");
  });
});

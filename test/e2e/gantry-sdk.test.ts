// The gantry API on the real svc-server, through the official SDK's GantryClient: the fake
// gantry has one axis `length_mm` long (100 unless set) with its carriage starting half way,
// moves within it (at once with no speed, at the speed asked for otherwise, reporting moving
// until it arrives or is stopped), homes, gives its chain as an SVA file, and refuses a
// position off the axis and a length that is not positive, naming the field.
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually.js";
import { dialSdk, fullName } from "../helpers/sdk-robot.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";

const config = {
  components: [
    { name: "rail", type: "gantry", model: "fake" },
    { name: "long", type: "gantry", model: "fake", attributes: { length_mm: 400 } },
    { name: "crooked", type: "gantry", model: "fake", attributes: { length_mm: -5 } },
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

const gantry = (name: string) => new VIAM.GantryClient(robot, name);

describe("the gantry API", () => {
  it("has the fake gantries READY, lists the gantry service, and names a bad length", async () => {
    const status = await robot.getMachineStatus();
    const byName = new Map(status.resources.map((r) => [fullName(r.name!), r]));
    for (const name of ["rail", "long"]) expect(byName.get(`rdk:component:gantry/${name}`)?.state, name).toBe(VIAM.robotApi.ResourceStatus_State.READY);
    const crooked = byName.get("rdk:component:gantry/crooked");
    expect(crooked?.state).not.toBe(VIAM.robotApi.ResourceStatus_State.READY);
    expect(crooked?.error).toContain("components[2].attributes.length_mm: must be greater than 0");
    const subtypes = await robot.resourceRPCSubtypes();
    expect(subtypes.map((s) => `${s.subtype?.namespace}:${s.subtype?.type}:${s.subtype?.subtype} ${s.protoService}`)).toContain(
      "rdk:component:gantry viam.component.gantry.v1.GantryService",
    );
  });

  it("answers NOT_FOUND for a gantry not configured and UNIMPLEMENTED for geometries, naming the gantry", async () => {
    await expect(gantry("nope").getPosition()).rejects.toMatchObject({ code: VIAM.Code.NotFound });
    await expect(gantry("rail").getGeometries()).rejects.toMatchObject({
      code: VIAM.Code.Unimplemented,
      message: expect.stringContaining("rdk:component:gantry/rail does not support GetGeometries"),
    });
  });
});

describe("the fake gantry", () => {
  it("has one axis of its configured length, its carriage half way", async () => {
    expect(await gantry("rail").getLengths()).toEqual([100]);
    expect(await gantry("rail").getPosition()).toEqual([50]);
    expect(await gantry("long").getLengths()).toEqual([400]);
    expect(await gantry("long").getPosition()).toEqual([200]);
  });

  it("moves to a position and reads it back, homes, and stays put", async () => {
    await gantry("rail").moveToPosition([20], [0]);
    expect(await gantry("rail").getPosition()).toEqual([20]);
    expect(await gantry("rail").isMoving()).toBe(false);
    expect(await gantry("rail").home()).toBe(true);
    expect(await gantry("rail").getPosition()).toEqual([20]);
  });

  it("refuses a position off the axis and the wrong number of values, naming the field, and stays where it was", async () => {
    await expect(gantry("rail").moveToPosition([150], [0])).rejects.toMatchObject({
      code: VIAM.Code.InvalidArgument,
      message: expect.stringContaining("positions_mm[0]: 150 is outside the axis, 0 to 100 mm"),
    });
    await expect(gantry("rail").moveToPosition([10, 10], [])).rejects.toMatchObject({
      code: VIAM.Code.InvalidArgument,
      message: expect.stringContaining("positions_mm: the gantry has 1 axis(es), got 2 position(s)"),
    });
    await expect(gantry("rail").moveToPosition([10], [-1])).rejects.toMatchObject({
      code: VIAM.Code.InvalidArgument,
      message: expect.stringContaining("speeds_mm_per_sec[0]: must be 0 or more, got -1"),
    });
    expect(await gantry("rail").getPosition()).toEqual([20]);
  });

  it("travels at the speed asked for, reporting moving, and stops where it is when told", async () => {
    const long = gantry("long");
    // 200 mm at 1 mm/s: far longer than the test waits.
    const move = long.moveToPosition([0], [1]).then(
      () => "answered",
      (e: unknown) => e,
    );
    await eventually(async () => ((await long.isMoving()) ? true : undefined), "the gantry to report moving");
    await long.stop();
    expect(await move).toBe("answered");
    expect(await long.isMoving()).toBe(false);
    const [at] = await long.getPosition();
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThan(200);
  });

  it("gives its chain, one prismatic joint along x over the axis's length, as an SVA file", async () => {
    const kinematics = await gantry("long").getKinematics();
    expect(kinematics.kinematic_param_type).toBe("SVA");
    expect(kinematics.joints).toEqual([{ id: "gantry_joint", type: "prismatic", parent: "world", axis: { x: 1, y: 0, z: 0 }, min: 0, max: 400 }]);
    expect(await gantry("long").doCommand(VIAM.Struct.fromJson({ ping: true }))).toEqual({ ping: true });
  });
});

// The arm API on the real svc-server, through the official SDK's ArmClient: the fake arm's joints
// go where they are told and GetJointPositions reads them back; GetEndPosition follows the
// documented chain (Viam's one-joint "fake" chain, or svc's simple chain for a named arm-model);
// MoveToPosition reaches a pose and GetEndPosition then reads it; a pose out of reach and joint
// values the arm cannot take are refused, naming the field; GetKinematics gives the chain as an
// SVA file; a slow arm reports moving until Stop or StopAll ends its move;
// MoveThroughJointPositions (which the SDK does not call) goes through grpc-js; a bad arm-model
// is refused naming the attribute, by the running server and by -validate.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chainOfArmModel, forwardKinematics, poseOfTransform } from "../../core/components/manipulators/index.js";
import { ArmService } from "../../proto/gen/component/arm/v1/arm_pb.js";
import { eventually } from "../helpers/eventually.js";
import { createGrpcJsClient, type GrpcJsClient } from "../helpers/grpc-js-client.js";
import { runCli } from "../helpers/run-cli.js";
import { dialSdk, fullName } from "../helpers/sdk-robot.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";

const config = {
  components: [
    { name: "ur", type: "arm", model: "fake", attributes: { "arm-model": "ur5e" } },
    { name: "plain", type: "arm", model: "fake" },
    { name: "slow", type: "arm", model: "fake", attributes: { "arm-model": "xarm6", speed_degs_per_sec: 1 } },
    { name: "wrong", type: "arm", model: "fake", attributes: { "arm-model": "ur99" } },
  ],
};

let server: SvcServerProcess;
let robot: VIAM.RobotClient;
let grpc: GrpcJsClient;

beforeAll(async () => {
  server = await startSvcServer(config);
  robot = await dialSdk(server.sdkHost);
  grpc = createGrpcJsClient(server.url);
});

afterAll(async () => {
  grpc?.close();
  await robot?.disconnect();
  await server?.stop();
});

const arm = (name: string) => new VIAM.ArmClient(robot, name);

/** A pose's numbers rounded, for exact comparison. */
const rounded = (p: { x: number; y: number; z: number; oX: number; oY: number; oZ: number; theta: number }, digits = 6) =>
  [p.x, p.y, p.z, p.oX, p.oY, p.oZ, p.theta].map((v) => Math.round(v * 10 ** digits) / 10 ** digits + 0);

const pose = (x: number, y: number, z: number, oX: number, oY: number, oZ: number, theta: number) =>
  new VIAM.commonApi.Pose({ x, y, z, oX, oY, oZ, theta });

describe("the arm API", () => {
  it("has the fake arms READY, lists the arm service, and names the bad arm-model", async () => {
    const status = await robot.getMachineStatus();
    const byName = new Map(status.resources.map((r) => [fullName(r.name!), r]));
    for (const name of ["ur", "plain", "slow"]) {
      expect(byName.get(`rdk:component:arm/${name}`)?.state, name).toBe(VIAM.robotApi.ResourceStatus_State.READY);
    }
    const wrong = byName.get("rdk:component:arm/wrong");
    expect(wrong?.state).not.toBe(VIAM.robotApi.ResourceStatus_State.READY);
    expect(wrong?.error).toContain('components[3].attributes.arm-model: unknown arm model "ur99"; one of fake, ur5e, ur7e, ur20, xarm6, xarm7, lite6, dofbot');
    const subtypes = await robot.resourceRPCSubtypes();
    expect(subtypes.map((s) => `${s.subtype?.namespace}:${s.subtype?.type}:${s.subtype?.subtype} ${s.protoService}`)).toContain(
      "rdk:component:arm viam.component.arm.v1.ArmService",
    );
  });

  it("answers NOT_FOUND for an arm not configured and UNIMPLEMENTED for geometries, naming the arm", async () => {
    await expect(arm("nope").getJointPositions()).rejects.toMatchObject({ code: VIAM.Code.NotFound });
    await expect(arm("ur").getGeometries()).rejects.toMatchObject({
      code: VIAM.Code.Unimplemented,
      message: expect.stringContaining("rdk:component:arm/ur does not support GetGeometries"),
    });
  });
});

describe("a fake arm standing in for a ur5e", () => {
  it("starts with its six joints at 0, reaching straight out along x", async () => {
    expect((await arm("ur").getJointPositions()).values).toEqual([0, 0, 0, 0, 0, 0]);
    expect(rounded(await arm("ur").getEndPosition())).toEqual([500, 0, 300, 1, 0, 0, 0]);
  });

  it("moves its joints, reads them back, and puts its end where the chain says", async () => {
    await arm("ur").moveToJointPositions([90, 0, 0, 0, 0, 0]);
    expect((await arm("ur").getJointPositions()).values).toEqual([90, 0, 0, 0, 0, 0]);
    expect(rounded(await arm("ur").getEndPosition())).toEqual([0, 500, 300, 0, 1, 0, 0]);
    await arm("ur").moveToJointPositions([0, -90, 0, 0, 0, 0]);
    expect(rounded(await arm("ur").getEndPosition()).slice(0, 6)).toEqual([0, 0, 800, 0, 0, 1]);
    expect(await arm("ur").isMoving()).toBe(false);
  });

  it("moves its end to a pose, which GetEndPosition then reads", async () => {
    const target = poseOfTransform(forwardKinematics(chainOfArmModel("ur5e")!, [30, -40, 25, 60, -35, 15]));
    await arm("ur").moveToPosition(pose(target.x, target.y, target.z, target.oX, target.oY, target.oZ, target.theta));
    expect(rounded(await arm("ur").getEndPosition(), 3)).toEqual(rounded(target, 3));
    expect((await arm("ur").getJointPositions()).values).toHaveLength(6);
    expect(await arm("ur").isMoving()).toBe(false);
  });

  it("refuses a pose out of reach and joint values it cannot take, naming the field, and stays where it was", async () => {
    const before = (await arm("ur").getJointPositions()).values;
    await expect(arm("ur").moveToPosition(pose(2000, 0, 300, 1, 0, 0, 0))).rejects.toMatchObject({
      code: VIAM.Code.InvalidArgument,
      message: expect.stringMatching(/to: the pose \(x 2000, y 0, z 300, .*\) is out of the arm's reach; the closest it comes is [\d.]+ mm/),
    });
    await expect(arm("ur").moveToJointPositions([1, 2])).rejects.toMatchObject({
      code: VIAM.Code.InvalidArgument,
      message: expect.stringContaining("positions.values: the arm has 6 joint(s), got 2 value(s)"),
    });
    await expect(arm("ur").moveToJointPositions([0, 0, 400, 0, 0, 0])).rejects.toMatchObject({
      code: VIAM.Code.InvalidArgument,
      message: expect.stringContaining("positions.values[2]: 400 is outside joint joint_3's limits, -360 to 360 degrees"),
    });
    expect((await arm("ur").getJointPositions()).values).toEqual(before);
  });

  it("gives its chain as an SVA kinematics file", async () => {
    const kinematics = await arm("ur").getKinematics();
    expect(kinematics.kinematic_param_type).toBe("SVA");
    expect(kinematics.joints.map((j) => [j.id, j.type, j.axis, j.min, j.max])).toEqual(
      [
        { x: 0, y: 0, z: 1 },
        { x: 0, y: 1, z: 0 },
        { x: 1, y: 0, z: 0 },
        { x: 0, y: 1, z: 0 },
        { x: 1, y: 0, z: 0 },
        { x: 0, y: 1, z: 0 },
      ].map((axis, i) => [`joint_${i + 1}`, "revolute", axis, -360, 360]),
    );
    expect(kinematics.links[0]).toMatchObject({ id: "column", parent: "world", translation: { x: 0, y: 0, z: 300 } });
  });

  it("has no 3D models and echoes DoCommand", async () => {
    expect(await arm("ur").get3DModels()).toEqual({});
    expect(await arm("ur").doCommand(VIAM.Struct.fromJson({ hello: "arm" }))).toEqual({ hello: "arm" });
  });

  it("moves through joint positions in turn, ending at the last", async () => {
    const values = (v: number[]) => ({ values: v });
    await grpc.call(ArmService.method.moveThroughJointPositions, {
      name: "ur",
      positions: [values([10, 0, 0, 0, 0, 0]), values([20, 10, 0, 0, 0, 0]), values([30, 20, 10, 0, 0, 0])],
    });
    expect((await arm("ur").getJointPositions()).values).toEqual([30, 20, 10, 0, 0, 0]);
    await expect(grpc.call(ArmService.method.moveThroughJointPositions, { name: "ur", positions: [values([0]), values([0, 0, 0, 0, 0, 0])] })).rejects.toMatchObject({
      code: 3,
      details: expect.stringContaining("positions[0].values: the arm has 6 joint(s), got 1 value(s)"),
    });
  });
});

describe("a fake arm with no arm-model (Viam's one-joint fake chain)", () => {
  it("turns its one joint about z, 500 mm out and 300 mm up", async () => {
    expect((await arm("plain").getJointPositions()).values).toEqual([0]);
    await arm("plain").moveToJointPositions([45]);
    expect(rounded(await arm("plain").getEndPosition())).toEqual([500, 0, 300, 0, 0, 1, 45]);
    await arm("plain").moveToPosition(pose(500, 0, 300, 0, 0, 1, -30));
    expect((await arm("plain").getJointPositions()).values[0]).toBeCloseTo(-30, 6);
    const kinematics = await arm("plain").getKinematics();
    expect(kinematics.joints.map((j) => j.id)).toEqual(["shoulder_pan_joint"]);
  });
});

describe("a fake arm with a speed", () => {
  it("reports moving while its joints turn, and stops where it is when told", async () => {
    const slow = arm("slow");
    // 90 degrees at 1 degree a second: far longer than the test waits.
    const move = slow.moveToJointPositions([90, 0, 0, 0, 0, 0]).then(
      () => "answered",
      (e: unknown) => e,
    );
    await eventually(async () => ((await slow.isMoving()) ? true : undefined), "the slow arm to report moving");
    await slow.stop();
    expect(await move).toBe("answered");
    expect(await slow.isMoving()).toBe(false);
    const [first, ...rest] = (await slow.getJointPositions()).values;
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(90);
    expect(rest).toEqual([0, 0, 0, 0, 0]);
  });

  it("is stopped by StopAll, which ends the move in flight as cancelled", async () => {
    const slow = arm("slow");
    const move = slow.moveToPosition(pose(0, 500, 300, 0, 1, 0, 0)).then(
      () => "answered",
      (e: unknown) => e,
    );
    await eventually(async () => ((await slow.isMoving()) ? true : undefined), "the slow arm to report moving");
    await robot.stopAll();
    expect(await move).toMatchObject({ code: VIAM.Code.Canceled });
    expect(await slow.isMoving()).toBe(false);
    expect((await slow.getJointPositions()).values[0]).toBeLessThan(90);
  });
});

describe("svc-server -validate with fake arms", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "svc-arm-validate-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const validate = (components: object[]) => {
    const file = join(dir, "machine.json");
    writeFileSync(file, JSON.stringify({ components }));
    const { code, stdout, stderr } = runCli("svc-server", ["-validate", "-config", file]);
    return { code, lines: `${stdout}${stderr}`.trim().split("\n") };
  };

  it("says every arm-model Viam's fake arm knows can run", () => {
    const models = ["fake", "ur5e", "ur7e", "ur20", "xarm6", "xarm7", "lite6", "dofbot"];
    const { code, lines } = validate(models.map((m) => ({ name: m, type: "arm", model: "fake", attributes: { "arm-model": m } })));
    expect(lines.at(-1)).toMatch(/: 0 error\(s\), 0 warning\(s\)$/);
    expect(code).toBe(0);
  });

  it("refuses an unknown arm-model, a kinematics file and a speed that is not positive, each at its path", () => {
    const { code, lines } = validate([
      { name: "a", type: "arm", model: "fake", attributes: { "arm-model": "ur99" } },
      { name: "b", type: "arm", model: "fake", attributes: { "model-path": "/etc/arm.json" } },
      { name: "c", type: "arm", model: "fake", attributes: { speed_degs_per_sec: 0 } },
    ]);
    expect(code).toBe(1);
    expect(lines).toContainEqual(expect.stringMatching(/^components\[0\]\.attributes\.arm-model: unknown arm model "ur99"/));
    expect(lines).toContainEqual(expect.stringMatching(/^components\[1\]\.attributes\.model-path: the fake arm reads no kinematics file/));
    expect(lines).toContainEqual("components[2].attributes.speed_degs_per_sec: must be greater than 0");
  });
});

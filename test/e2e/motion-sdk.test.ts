// The motion service on the real svc-server, through the official SDK's MotionClient: written as
// Viam's configurations write it (no model: builtin) or as `fake`, it answers GetPose through the
// machine's frame system (a base on the world, an arm on the base, a camera on the arm), with the
// call's own supplemental frames, following a live edit of a frame. A component without a frame,
// an unknown frame and an unknown motion service are NOT_FOUND; Move, MoveOnMap and MoveOnGlobe
// are UNIMPLEMENTED, saying svc-server plans no motion; no plan is listed, read or stopped.
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually.js";
import { dialSdk, fullName } from "../helpers/sdk-robot.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";

const MOTION = "rdk:service:motion";

const machine = (armX: number) => ({
  components: [
    {
      name: "base",
      api: "rdk:component:base",
      model: "fake",
      frame: { parent: "world", translation: { x: 100, y: 0, z: 0 }, orientation: { type: "ov_degrees", value: { x: 0, y: 0, z: 1, th: 90 } } },
    },
    { name: "arm", api: "rdk:component:arm", model: "fake", frame: { parent: "base", translation: { x: armX, y: 0, z: 50 } } },
    {
      name: "cam",
      api: "rdk:component:camera",
      model: "fake",
      frame: { parent: "arm", translation: { x: 0, y: 0, z: 30 }, orientation: { type: "euler_angles", value: { roll: 0, pitch: Math.PI / 2, yaw: 0 } } },
    },
    { name: "temp", api: "rdk:component:sensor", model: "fake" },
  ],
  services: [
    { name: "builtin", type: "motion" },
    { name: "fake", api: MOTION, model: "fake" },
  ],
});

type Numbers = Record<string, number>;

/** A pose's numbers rounded so that float noise does not matter, zeros left out as on the wire. */
function rounded(message: { toJson(): unknown } | undefined): Numbers {
  const json = (message?.toJson() ?? {}) as Numbers;
  const kept = Object.entries(json).map(([k, v]) => [k, Math.round(v * 1e6) / 1e6 + 0] as const);
  return Object.fromEntries(kept.filter(([, v]) => v !== 0));
}

const poseIn = (referenceFrame: string, pose: Partial<VIAM.commonApi.Pose> = {}) =>
  new VIAM.commonApi.PoseInFrame({ referenceFrame, pose: new VIAM.commonApi.Pose({ oZ: 1, ...pose }) });

describe("the motion service through the official SDK", () => {
  let server: SvcServerProcess;
  let robot: VIAM.RobotClient;
  const motion = (name = "builtin") => new VIAM.MotionClient(robot, name);

  beforeAll(async () => {
    server = await startSvcServer(machine(200));
    robot = await dialSdk(server.sdkHost);
  });

  afterAll(async () => {
    await robot?.disconnect();
    await server?.stop();
  });

  it("is READY however it is written and listed in ResourceRPCSubtypes with its service", async () => {
    const status = await robot.getMachineStatus();
    const states = Object.fromEntries(status.resources.map((r) => [fullName(r.name!), VIAM.robotApi.ResourceStatus_State[r.state]]));
    expect(states).toMatchObject({ [`${MOTION}/builtin`]: "READY", [`${MOTION}/fake`]: "READY" });
    const subtypes = await robot.resourceRPCSubtypes();
    expect(subtypes.map((s) => `${s.subtype?.namespace}:${s.subtype?.type}:${s.subtype?.subtype} ${s.protoService}`)).toContain(
      `${MOTION} viam.service.motion.v1.MotionService`,
    );
  });

  it("answers where each component is in the world, the destination left empty or named", async () => {
    for (const name of ["builtin", "fake"]) {
      const base = await motion(name).getPose("base", "", []);
      expect(base.referenceFrame).toBe("world");
      expect(rounded(base.pose)).toEqual({ x: 100, oZ: 1, theta: 90 });
    }
    // The arm is 200 mm along the base's x, which the base's quarter turn points along the world's y.
    const arm = await motion().getPose("arm", "world", []);
    expect([arm.referenceFrame, rounded(arm.pose)]).toEqual(["world", { x: 100, y: 200, z: 50, oZ: 1, theta: 90 }]);
    expect(rounded((await motion().getPose("cam", "world", [])).pose)).toEqual({ x: 100, y: 200, z: 80, oY: 1 });
  });

  it("answers where a component is seen from another component's frame", async () => {
    const inArm = await motion().getPose("cam", "arm", []);
    expect([inArm.referenceFrame, rounded(inArm.pose)]).toEqual(["arm", { z: 30, oX: 1 }]);
    expect(rounded((await motion("fake").getPose("cam", "base", [])).pose)).toEqual({ x: 200, z: 80, oX: 1 });
    // Back the other way: the base is 200 mm behind the camera's z, 80 mm along its x (the base's down).
    expect(rounded((await motion().getPose("base", "cam", [])).pose)).toEqual({ x: 80, z: -200, oX: -1, theta: 180 });
  });

  it("places the call's supplemental frames for that call only", async () => {
    const marker = new VIAM.commonApi.Transform({ referenceFrame: "marker", poseInObserverFrame: poseIn("cam", { z: 5 }) });
    expect(rounded((await motion().getPose("marker", "base", [marker])).pose)).toEqual({ x: 205, z: 80, oX: 1 });
    expect(rounded((await motion().getPose("cam", "marker", [marker])).pose)).toEqual({ z: -5, oZ: 1 });
    await expect(motion().getPose("marker", "world", [])).rejects.toMatchObject({ code: 5 });
  });

  it("answers NOT_FOUND for a component without a frame, an unknown frame and a motion service not configured", async () => {
    await expect(motion().getPose("temp", "world", [])).rejects.toMatchObject({
      code: 5,
      rawMessage: 'component "temp" has no frame: give its configuration a frame to place it in the frame system',
    });
    await expect(motion().getPose("ghost", "world", [])).rejects.toMatchObject({ code: 5, rawMessage: 'no frame named "ghost" in the frame system' });
    await expect(motion().getPose("arm", "nowhere", [])).rejects.toMatchObject({ code: 5, rawMessage: 'no frame named "nowhere" in the frame system' });
    await expect(motion("nope").getPose("arm", "world", [])).rejects.toMatchObject({ code: 5 });
    await expect(motion().getPose("", "world", [])).rejects.toMatchObject({ code: 3, rawMessage: "component_name: is required: the component's name" });
  });

  it("answers UNIMPLEMENTED for the calls that need a motion plan, saying svc-server plans none", async () => {
    const plansNone = { code: 12, rawMessage: expect.stringContaining("svc-server plans no motion") };
    await expect(motion().move(poseIn("world", { x: 10 }), "arm")).rejects.toMatchObject({ ...plansNone, rawMessage: expect.stringContaining(`${MOTION}/builtin does not support Move:`) });
    await expect(motion().moveOnMap(new VIAM.commonApi.Pose({ oZ: 1 }), "base", "slam")).rejects.toMatchObject(plansNone);
    await expect(motion("fake").moveOnGlobe(new VIAM.commonApi.GeoPoint({ latitude: 40, longitude: -74 }), "base", "gps")).rejects.toMatchObject(plansNone);
    await expect(motion("nope").move(poseIn("world"), "arm")).rejects.toMatchObject({ code: 5 });
  });

  it("lists no plan, and has none to read or stop: NOT_FOUND naming the component", async () => {
    expect((await motion().listPlanStatuses()).planStatusesWithIds).toEqual([]);
    expect((await motion("fake").listPlanStatuses(true)).planStatusesWithIds).toEqual([]);
    await expect(motion().getPlan("arm")).rejects.toMatchObject({ code: 5, rawMessage: expect.stringContaining('no plan for component "arm"') });
    await expect(motion().stopPlan("base")).rejects.toMatchObject({ code: 5, rawMessage: expect.stringContaining('no plan for component "base"') });
  });

  it("echoes DoCommand", async () => {
    expect(await motion().doCommand(VIAM.Struct.fromJson({ plan: "none" }))).toEqual({ plan: "none" });
  });

  it("answers from the frames of a live edit at once", async () => {
    server.writeConfig(machine(300));
    const arm = await eventually(async () => {
      const pose = rounded((await motion().getPose("arm", "", [])).pose);
      return pose.y === 300 ? pose : undefined;
    }, "the arm 300 mm out along the world's y");
    expect(arm).toEqual({ x: 100, y: 300, z: 50, oZ: 1, theta: 90 });
  });
});

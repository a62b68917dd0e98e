// The frame system on the real svc-server, through the official SDK's RobotClient: a base on the
// world, an arm on the base and a camera on the arm, as a configuration written for viam-server
// places them. frameSystemConfig() answers each frame with its parent, its pose there and its
// geometry; transformPose() carries poses between frames (with a supplemental frame of the call's
// own); an unknown frame is NOT_FOUND; a live edit of a frame is answered at once, rebuilding
// nothing, and one that breaks the tree is refused.
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually.js";
import { dialSdk } from "../helpers/sdk-robot.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";

const machine = (armX: number) => ({
  components: [
    {
      name: "cam",
      api: "rdk:component:camera",
      model: "fake",
      frame: { parent: "arm", translation: { x: 0, y: 0, z: 30 }, orientation: { type: "euler_angles", value: { roll: 0, pitch: Math.PI / 2, yaw: 0 } } },
    },
    {
      name: "base",
      api: "rdk:component:base",
      model: "fake",
      frame: { parent: "world", translation: { x: 100, y: 0, z: 0 }, orientation: { type: "ov_degrees", value: { x: 0, y: 0, z: 1, th: 90 } }, geometry: { type: "box", x: 300, y: 200, z: 100 } },
    },
    {
      name: "arm",
      api: "rdk:component:arm",
      model: "fake",
      frame: { parent: "base", translation: { x: armX, y: 0, z: 50 }, geometry: { type: "capsule", r: 20, l: 100, translation: { z: 50 }, label: "upper" } },
    },
    { name: "temp", api: "rdk:component:sensor", model: "fake" },
  ],
});

type Numbers = Record<string, number>;

/** A message's numbers rounded so that float noise does not matter, zeros left out as on the wire. */
function rounded(message: { toJson(): unknown } | undefined): Numbers {
  const json = (message?.toJson() ?? {}) as Numbers;
  const kept = Object.entries(json).map(([k, v]) => [k, Math.round(v * 1e6) / 1e6 + 0] as const);
  return Object.fromEntries(kept.filter(([, v]) => v !== 0));
}

const poseIn = (referenceFrame: string, pose: Partial<VIAM.commonApi.Pose> = {}) =>
  new VIAM.commonApi.PoseInFrame({ referenceFrame, pose: new VIAM.commonApi.Pose({ oZ: 1, ...pose }) });

describe("the frame system through the official SDK", () => {
  let server: SvcServerProcess;
  let robot: VIAM.RobotClient;

  beforeAll(async () => {
    server = await startSvcServer(machine(200));
    robot = await dialSdk(server.sdkHost);
  });

  afterAll(async () => {
    await robot?.disconnect();
    await server?.stop();
  });

  it("lists each component's frame, parents first: its parent, its pose there, its geometry", async () => {
    const configs = await robot.frameSystemConfig([]);
    expect(configs.map((c) => [c.frame?.referenceFrame, c.frame?.poseInObserverFrame?.referenceFrame])).toEqual([
      ["base", "world"],
      ["arm", "base"],
      ["cam", "arm"],
    ]);
    const [base, arm, cam] = configs.map((c) => c.frame!);
    expect(rounded(base!.poseInObserverFrame?.pose)).toEqual({ x: 100, oZ: 1, theta: 90 });
    const box = base!.physicalObject?.geometryType;
    expect(box?.case).toBe("box");
    expect(rounded(box?.case === "box" ? box.value.dimsMm : undefined)).toEqual({ x: 300, y: 200, z: 100 });
    expect(base!.physicalObject?.label).toBe("base");
    expect(rounded(arm!.poseInObserverFrame?.pose)).toEqual({ x: 200, z: 50, oZ: 1 });
    expect(arm!.physicalObject?.label).toBe("upper");
    expect(arm!.physicalObject?.geometryType).toMatchObject({ case: "capsule", value: { radiusMm: 20, lengthMm: 100 } });
    expect(rounded(arm!.physicalObject?.center)).toEqual({ z: 50, oZ: 1 });
    // A quarter turn about y points the camera's z along the arm's x.
    expect(rounded(cam!.poseInObserverFrame?.pose)).toEqual({ z: 30, oX: 1 });
    expect(cam!.physicalObject).toBeUndefined();
  });

  it("carries a pose from the camera to the world and back", async () => {
    // The camera sits at (200, 0, 80) on the base, which is turned a quarter about z at x 100.
    const inWorld = await robot.transformPose(poseIn("cam"), "world", []);
    expect(inWorld.referenceFrame).toBe("world");
    expect(rounded(inWorld.pose)).toEqual({ x: 100, y: 200, z: 80, oY: 1 });
    // 10 mm along the camera's own z is 10 mm along the world's y.
    expect(rounded((await robot.transformPose(poseIn("cam", { z: 10 }), "", [])).pose)).toMatchObject({ x: 100, y: 210, z: 80 });
    const back = await robot.transformPose(new VIAM.commonApi.PoseInFrame({ referenceFrame: "world", pose: inWorld.pose }), "cam", []);
    expect(back.referenceFrame).toBe("cam");
    expect(rounded(back.pose)).toEqual({ oZ: 1 });
  });

  it("places a supplemental frame for that call only", async () => {
    const marker = new VIAM.commonApi.Transform({ referenceFrame: "marker", poseInObserverFrame: poseIn("cam", { z: 5 }) });
    const found = await robot.transformPose(poseIn("marker"), "base", [marker]);
    // The camera's z is the base's x.
    expect(rounded(found.pose)).toEqual({ x: 205, z: 80, oX: 1 });
    await expect(robot.transformPose(poseIn("marker"), "world", [])).rejects.toMatchObject({ code: 5 });
  });

  it("answers NOT_FOUND for a frame that is not there, and INVALID_ARGUMENT for a bad supplemental frame", async () => {
    await expect(robot.transformPose(poseIn("temp"), "world", [])).rejects.toMatchObject({ code: 5, rawMessage: 'no frame named "temp" in the frame system' });
    const loop = new VIAM.commonApi.Transform({ referenceFrame: "m", poseInObserverFrame: poseIn("m") });
    await expect(robot.transformPose(poseIn("cam"), "world", [loop])).rejects.toMatchObject({
      code: 3,
      rawMessage: "supplemental_transforms[0].pose_in_observer_frame.reference_frame: frames form a cycle: m -> m",
    });
  });

  it("answers a live edit of a frame at once", async () => {
    server.writeConfig(machine(300));
    const moved = await eventually(async () => {
      const arm = (await robot.frameSystemConfig([]))[1]?.frame;
      return rounded(arm?.poseInObserverFrame?.pose).x === 300 ? arm : undefined;
    }, "the arm's frame at x 300");
    expect(rounded(moved.poseInObserverFrame?.pose)).toEqual({ x: 300, z: 50, oZ: 1 });
    // The log names the change; a frame is no part of what a component is built from, so nothing is rebuilt.
    const change = 'config change: components["arm"].frame.translation.x: 200 -> 300';
    const lines = await eventually(() => {
      const logged = server.stdout().split("\n").filter((l) => l.endsWith("}")).map((l) => JSON.parse(l) as { msg: string; built?: number });
      const at = logged.findIndex((l) => l.msg === change);
      return at >= 0 && logged.slice(at).some((l) => l.built !== undefined) ? logged.slice(at) : undefined;
    }, "the change in the log, then the configuration applied");
    expect(lines.find((l) => l.built !== undefined)).toMatchObject({ built: 0, modified: 0 });
    expect(rounded((await robot.transformPose(poseIn("cam"), "world", [])).pose)).toEqual({ x: 100, y: 300, z: 80, oY: 1 });
  });

  it("refuses a live edit that puts frames in a cycle, and keeps answering as it was", async () => {
    const broken = machine(300);
    (broken.components[2] as { frame: { parent: string } }).frame.parent = "cam";
    server.writeConfig(broken);
    const refusal = await eventually(() => {
      const logged = server.stdout().split("\n").filter((l) => l.endsWith("}")).map((l) => JSON.parse(l) as { msg: string; reason?: string });
      return logged.find((l) => l.msg.startsWith("configuration refused"));
    }, "the edit refused");
    expect(refusal.reason).toContain("components[0].frame.parent: frames form a cycle: cam -> arm -> cam");
    const configs = await robot.frameSystemConfig([]);
    expect(configs.map((c) => c.frame?.poseInObserverFrame?.referenceFrame)).toEqual(["world", "base", "arm"]);
    expect(rounded(configs[1]?.frame?.poseInObserverFrame?.pose)).toEqual({ x: 300, z: 50, oZ: 1 });
  });
});

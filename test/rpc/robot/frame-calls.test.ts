// RobotService's FrameSystemConfig and TransformPose over a configuration's frame system, called
// as the transports call them: each frame as a Transform with its geometry, poses carried between
// frames, a call's supplemental transforms placed for that call only, and every bad argument
// refused with the field it is in.
import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { Code, frameSystemOf, parseMachineConfig, SvcError } from "../../../core/index.js";
import { frameSystemConfigResponse, transformPoseResponse } from "../../../core/rpc/robot/frame-calls.js";
import { TransformPoseRequestSchema } from "../../../proto/gen/robot/v1/robot_pb.js";

const { config } = parseMachineConfig({
  components: [
    {
      name: "cam",
      api: "rdk:component:camera",
      model: "fake",
      frame: { parent: "arm", translation: { x: 10 }, geometry: { type: "capsule", r: 5, l: 30, translation: { z: 15 } } },
    },
    { name: "base", api: "rdk:component:base", model: "fake", frame: { parent: "world", translation: { x: 100 }, orientation: { type: "ov_degrees", value: { z: 1, th: 90 } } } },
    {
      name: "arm",
      api: "rdk:component:arm",
      model: "fake",
      frame: { parent: "base", translation: { y: 200, z: 50 }, geometry: { type: "box", x: 20, y: 30, z: 40, label: "link" } },
    },
    { name: "motor", api: "rdk:component:motor", model: "fake" },
  ],
});
const system = frameSystemOf(config!.components);

const transformPose = (request: Parameters<typeof create<typeof TransformPoseRequestSchema>>[1]) =>
  transformPoseResponse(system, create(TransformPoseRequestSchema, request));

function refusal(call: () => unknown): { code: Code; message: string } {
  try {
    call();
  } catch (thrown) {
    if (thrown instanceof SvcError) return { code: thrown.code, message: thrown.message };
    throw thrown;
  }
  throw new Error("the call was not refused");
}

const rounded = (pose: unknown) => JSON.parse(JSON.stringify(pose, (_k, v: unknown) => (typeof v === "number" ? Math.round(v * 1e6) / 1e6 + 0 : v)));

describe("FrameSystemConfig", () => {
  it("lists every component's frame, parents first, with its pose in its parent and its geometry", () => {
    expect(rounded(frameSystemConfigResponse(system))).toEqual({
      frameSystemConfigs: [
        { frame: { referenceFrame: "base", poseInObserverFrame: { referenceFrame: "world", pose: { x: 100, y: 0, z: 0, oX: 0, oY: 0, oZ: 1, theta: 90 } } }, kinematics: {} },
        {
          frame: {
            referenceFrame: "arm",
            poseInObserverFrame: { referenceFrame: "base", pose: { x: 0, y: 200, z: 50, oX: 0, oY: 0, oZ: 1, theta: 0 } },
            physicalObject: { center: { x: 0, y: 0, z: 0, oX: 0, oY: 0, oZ: 1, theta: 0 }, label: "link", geometryType: { case: "box", value: { dimsMm: { x: 20, y: 30, z: 40 } } } },
          },
          kinematics: {},
        },
        {
          frame: {
            referenceFrame: "cam",
            poseInObserverFrame: { referenceFrame: "arm", pose: { x: 10, y: 0, z: 0, oX: 0, oY: 0, oZ: 1, theta: 0 } },
            physicalObject: { center: { x: 0, y: 0, z: 15, oX: 0, oY: 0, oZ: 1, theta: 0 }, label: "cam", geometryType: { case: "capsule", value: { radiusMm: 5, lengthMm: 30 } } },
          },
          kinematics: {},
        },
      ],
    });
  });

  it("is empty for a machine without frames", () => {
    expect(frameSystemConfigResponse(frameSystemOf([]))).toEqual({ frameSystemConfigs: [] });
  });
});

describe("TransformPose", () => {
  it("takes a pose from its frame into the destination, the world when none is named", () => {
    expect(rounded(transformPose({ source: { referenceFrame: "cam", pose: { z: 5, oZ: 1 } } }))).toEqual({
      pose: { referenceFrame: "world", pose: { x: -100, y: 10, z: 55, oX: 0, oY: 0, oZ: 1, theta: 90 } },
    });
    expect(rounded(transformPose({ source: { referenceFrame: "world" }, destination: "arm" }))).toEqual({
      pose: { referenceFrame: "arm", pose: { x: 0, y: -100, z: -50, oX: 0, oY: 0, oZ: 1, theta: -90 } },
    });
  });

  it("places the call's supplemental transforms for that call only", () => {
    const marker = { referenceFrame: "marker", poseInObserverFrame: { referenceFrame: "cam", pose: { z: 2, oZ: 1 } } };
    expect(rounded(transformPose({ source: { referenceFrame: "marker" }, supplementalTransforms: [marker] }).pose?.pose)).toEqual({
      x: -100, y: 10, z: 52, oX: 0, oY: 0, oZ: 1, theta: 90,
    });
    expect(refusal(() => transformPose({ source: { referenceFrame: "marker" } }))).toEqual({ code: Code.NotFound, message: 'no frame named "marker" in the frame system' });
  });

  it.each([
    [{}, "source: is required: a pose and the frame it is observed in"],
    [{ source: { pose: { x: 1 } } }, "source.reference_frame: is required: the frame the pose is observed in"],
    [{ source: { referenceFrame: "cam", pose: { x: Number.NaN } } }, "source.pose: must hold finite numbers"],
    [{ source: { referenceFrame: "cam" }, supplementalTransforms: [{ poseInObserverFrame: { referenceFrame: "cam" } }] },
      "supplemental_transforms[0].reference_frame: is required: the name of the frame it adds"],
    [{ source: { referenceFrame: "cam" }, supplementalTransforms: [{ referenceFrame: "m" }] },
      "supplemental_transforms[0].pose_in_observer_frame.reference_frame: is required: the frame it is placed in"],
    [{ source: { referenceFrame: "cam" }, supplementalTransforms: [{ referenceFrame: "arm", poseInObserverFrame: { referenceFrame: "world" } }] },
      `supplemental_transforms[0].reference_frame: names the frame "arm", which the machine's frame system already has`],
    [{ source: { referenceFrame: "cam" }, supplementalTransforms: [{ referenceFrame: "m", poseInObserverFrame: { referenceFrame: "nowhere" } }] },
      'supplemental_transforms[0].pose_in_observer_frame.reference_frame: unknown frame "nowhere"'],
    [{ source: { referenceFrame: "cam" }, supplementalTransforms: [
      { referenceFrame: "m", poseInObserverFrame: { referenceFrame: "n" } },
      { referenceFrame: "n", poseInObserverFrame: { referenceFrame: "m" } },
    ] }, "supplemental_transforms[0].pose_in_observer_frame.reference_frame: frames form a cycle: m -> n -> m"],
  ])("refuses %j as INVALID_ARGUMENT, naming the field", (request, message) => {
    expect(refusal(() => transformPose(request))).toEqual({ code: Code.InvalidArgument, message });
  });

  it("answers NOT_FOUND for a frame the machine does not have, source or destination", () => {
    expect(refusal(() => transformPose({ source: { referenceFrame: "motor" } }))).toEqual({ code: Code.NotFound, message: 'no frame named "motor" in the frame system' });
    expect(refusal(() => transformPose({ source: { referenceFrame: "cam" }, destination: "gripper" }))).toEqual({
      code: Code.NotFound,
      message: 'no frame named "gripper" in the frame system',
    });
  });
});

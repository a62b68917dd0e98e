// RobotService's frame system calls, over the frame system of the configuration in force.
// FrameSystemConfig lists every frame as viam-server does: parents before children, each as a
// Transform (its name, its parent and pose there, its geometry) with empty kinematics; the
// supplemental transforms of that request are not listed, as viam-server lists none. TransformPose
// takes a pose observed in one frame into another ("" is the world), with the request's
// supplemental transforms placed for that call only. A bad argument is INVALID_ARGUMENT naming
// its field; a frame that is not there is NOT_FOUND.
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { GeometrySchema, Transform, TransformSchema } from "../../../proto/gen/common/v1/common_pb.js";
import type {
  FrameSystemConfigResponseSchema,
  TransformPoseRequest,
  TransformPoseResponseSchema,
} from "../../../proto/gen/robot/v1/robot_pb.js";
import { Code, SvcError } from "../../errors/index.js";
import {
  IDENTITY_POSE,
  placeFrames,
  poseFromWire,
  poseToWire,
  WORLD,
  type FrameEntry,
  type FrameGeometry,
  type FrameSystem,
  type Pose,
  type WirePose,
} from "../../frame/index.js";

type GeometryInit = MessageInitShape<typeof GeometrySchema>;

export function frameSystemConfigResponse(system: FrameSystem): MessageInitShape<typeof FrameSystemConfigResponseSchema> {
  return {
    frameSystemConfigs: system.frames.map((frame) => {
      const transform: MessageInitShape<typeof TransformSchema> = {
        referenceFrame: frame.name,
        poseInObserverFrame: { referenceFrame: frame.parent, pose: poseToWire(frame.pose) },
      };
      if (frame.geometry) transform.physicalObject = wireGeometry(frame.geometry);
      return { frame: transform, kinematics: {} };
    }),
  };
}

export function transformPoseResponse(machine: FrameSystem, request: TransformPoseRequest): MessageInitShape<typeof TransformPoseResponseSchema> {
  const { source } = request;
  if (!source) throw invalid("source: is required: a pose and the frame it is observed in");
  if (source.referenceFrame === "") throw invalid("source.reference_frame: is required: the frame the pose is observed in");
  const system = withSupplements(machine, request.supplementalTransforms);
  const destination = request.destination === "" ? WORLD : request.destination;
  for (const name of [source.referenceFrame, destination]) {
    if (!system.has(name)) throw new SvcError(Code.NotFound, `no frame named ${JSON.stringify(name)} in the frame system`);
  }
  const pose = source.pose ? wirePose(source.pose, "source.pose") : IDENTITY_POSE;
  return { pose: { referenceFrame: destination, pose: poseToWire(system.transform(pose, source.referenceFrame, destination)) } };
}

// The request's own frames, placed over the machine's: every problem is the caller's.
function withSupplements(machine: FrameSystem, transforms: readonly Transform[]): FrameSystem {
  if (transforms.length === 0) return machine;
  const at = (index: number) => `supplemental_transforms[${index}]`;
  const entries: FrameEntry[] = transforms.map((transform, index) => {
    const observer = transform.poseInObserverFrame;
    if (transform.referenceFrame === "") throw invalid(`${at(index)}.reference_frame: is required: the name of the frame it adds`);
    if (!observer || observer.referenceFrame === "") {
      throw invalid(`${at(index)}.pose_in_observer_frame.reference_frame: is required: the frame it is placed in`);
    }
    const pose = observer.pose ? wirePose(observer.pose, `${at(index)}.pose_in_observer_frame.pose`) : IDENTITY_POSE;
    return { name: transform.referenceFrame, parent: observer.referenceFrame, pose };
  });
  const { system, problems } = placeFrames(entries, at, machine);
  const first = problems[0];
  if (first) {
    const field = first.at === "name" ? "reference_frame" : "pose_in_observer_frame.reference_frame";
    throw invalid(`${at(first.index)}.${field}: ${first.message}`);
  }
  return system;
}

function wirePose(pose: WirePose, field: string): Pose {
  const values = [pose.x, pose.y, pose.z, pose.oX, pose.oY, pose.oZ, pose.theta];
  if (!values.every(Number.isFinite)) throw invalid(`${field}: must hold finite numbers`);
  return poseFromWire(pose);
}

function wireGeometry(geometry: FrameGeometry): GeometryInit {
  const { shape } = geometry;
  const wire: GeometryInit = { center: poseToWire(geometry.center), label: geometry.label };
  if (shape.kind === "box") wire.geometryType = { case: "box", value: { dimsMm: { x: shape.x, y: shape.y, z: shape.z } } };
  else if (shape.kind === "sphere") wire.geometryType = { case: "sphere", value: { radiusMm: shape.r } };
  else wire.geometryType = { case: "capsule", value: { radiusMm: shape.r, lengthMm: shape.l } };
  return wire;
}

function invalid(message: string): SvcError {
  return new SvcError(Code.InvalidArgument, message);
}

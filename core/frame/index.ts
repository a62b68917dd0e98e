// Public face of core/frame: the frame system (where each component is, in a tree rooted at the
// world), poses and rotations (unit quaternions), Viam's orientation forms, and a component's
// `frame` as a configuration writes it.
export { placeFrames, WORLD } from "./frame-system.js";
export type { FrameEntry, FrameGeometry, FrameProblem, FrameSystem, Shape } from "./frame-system.js";
export { composePoses, IDENTITY_POSE, invertPose, poseFromWire, poseToWire } from "./pose.js";
export type { Pose, WirePose } from "./pose.js";
export { axisAngleOf, eulerAnglesOf, fromEulerAngles, fromOrientationVector, orientationKeys, orientationVectorOf, rotationOf } from "./orientation.js";
export type { OrientationType, OrientationValue, OrientationVector } from "./orientation.js";
export { conjugate, IDENTITY_ROTATION, multiply, normalize, rotate, unitVector, Z_AXIS } from "./quaternion.js";
export type { Quaternion, Vector3 } from "./quaternion.js";
export { readFrameConfig } from "./frame-config.js";
export { frameSystemOf, type FramedResource } from "./configured-frames.js";
export type { FrameConfig, FrameConfigProblem, GeometryConfig, GeometryType, OrientationConfig } from "./frame-config.js";

// The platform-neutral core of svc: runs on Node and in XS. No Node builtins, no globals
// beyond ES2020: time, sinks and IO are passed in.
export * from "./errors/index.js";
export * from "./config/index.js";
// The frame system by name: core/frame's Vector3 would clash with the components' own.
export { composePoses, frameSystemOf, invertPose, placeFrames, poseFromWire, poseToWire, readFrameConfig, rotationOf, WORLD } from "./frame/index.js";
export type { FrameConfig, FrameEntry, FrameSystem, OrientationType, Pose, Quaternion, WirePose } from "./frame/index.js";
export * from "./logging/index.js";
export * from "./resource/index.js";
export * from "./graph/index.js";
export * from "./components/index.js";
export * from "./rpc/index.js";
export * from "./agent/index.js";
export * from "./machine/index.js";
export * from "./ftdc/index.js";
export { every, sleep, type Clock } from "./clock.js";
export { createSerialQueue, type SerialQueue } from "./serial-queue.js";
export { coalescedRun, type CoalescedRun } from "./coalesced-run.js";
export { createScaledClock, type ScaledClock } from "./scaled-clock.js";
export { createManualClock, type ManualClock } from "./manual-clock.js";

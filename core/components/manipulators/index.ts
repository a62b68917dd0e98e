// Public face of core/components/manipulators: the arm, gripper and gantry APIs, their fake
// models, and the kinematics the arm and gantry are computed with (chains, poses, inverse
// kinematics, Viam's SVA files). Only svc-server registers and serves them: nothing here is
// reached from core/index.ts, so the MCU's bundle never carries it.
export type { Arm, ArmMoveOptions, KinematicsFile, Mesh } from "./arm.js";
export type { Gripper } from "./gripper.js";
export type { Gantry } from "./gantry.js";
export type { Pose, Transform } from "./pose.js";
export { compose, orientationOfRotation, poseOfTransform, rotationOfOrientation, transformOfPose } from "./pose.js";
export type { ChainJoint, ChainLink, ChainPart, KinematicChain } from "./kinematic-chain.js";
export { forwardKinematics, jointsOf } from "./kinematic-chain.js";
export { inverseKinematics, type IkSolution } from "./inverse-kinematics.js";
export { armModelNames, chainOfArmModel, simpleChain, DEFAULT_ARM_MODEL } from "./arm-models.js";
export { svaDocument, svaFile } from "./sva.js";
export { createJointMotion, type JointMotion } from "./joint-motion.js";
export { fakeArmModel, readFakeArmAttributes } from "./fake-arm.js";
export { fakeGripperModel } from "./fake-gripper.js";
export { fakeGantryModel, DEFAULT_GANTRY_LENGTH_MM } from "./fake-gantry.js";

// The arm API: a chain of joints ending in a tool. Joint values are degrees (revolute joints) or
// millimetres (prismatic ones), one per joint from the base outward; poses are the tool's, in
// the arm's own frame.
import type { Actuator } from "../apis/actuator.js";
import type { Commandable, Extra } from "../apis/commandable.js";
import type { Pose } from "./pose.js";

/** A kinematics file: Viam's SVA JSON or a URDF document, as bytes. */
export interface KinematicsFile {
  format: "sva" | "urdf";
  data: Uint8Array;
}

/** A part's 3D model: its bytes in a format such as "model/gltf-binary". */
export interface Mesh {
  contentType: string;
  mesh: Uint8Array;
}

export interface ArmMoveOptions {
  /** The fastest any joint may turn, degrees per second. */
  maxVelDegsPerSec?: number;
}

export interface Arm extends Commandable, Actuator {
  getEndPosition(extra?: Extra): Promise<Pose>;
  /** Moves the tool to `pose`; resolves on arrival (or when stopped or sent elsewhere). */
  moveToPosition(pose: Pose, extra?: Extra): Promise<void>;
  getJointPositions(extra?: Extra): Promise<number[]>;
  /** Moves every joint to its value; resolves on arrival (or when stopped or sent elsewhere). */
  moveToJointPositions(values: readonly number[], extra?: Extra): Promise<void>;
  /** Moves through each set of joint values in turn. */
  moveThroughJointPositions?(positions: ReadonlyArray<readonly number[]>, options: ArmMoveOptions, extra?: Extra): Promise<void>;
  getKinematics(extra?: Extra): Promise<KinematicsFile>;
  /** The 3D models of the arm's parts, by part name. */
  get3DModels?(extra?: Extra): Promise<Record<string, Mesh>>;
}

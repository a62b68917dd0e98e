// Poses as the API writes them (a position in millimetres and an orientation vector with theta
// in degrees: the frame system's WirePose) and as kinematics computes with them (a rotation
// matrix and a translation). The orientation vector's conventions are Viam's, kept in one place:
// core/frame's conversions, through its unit quaternions.
import { fromOrientationVector, orientationVectorOf, Z_AXIS, unitVector, type WirePose } from "../../frame/index.js";
import { apply, add, IDENTITY, matrixOfQuaternion, multiply, quaternionOfMatrix, type Rotation, type Vec3 } from "./rotation.js";

export type Pose = WirePose;

/** A frame placed in another: first rotated, then moved by `translation` (mm). */
export interface Transform {
  readonly rotation: Rotation;
  readonly translation: Vec3;
}

export const ORIGIN: Transform = { rotation: IDENTITY, translation: [0, 0, 0] };

const DEGREE = Math.PI / 180;

/** `inner`, given in `outer`'s frame, placed in the frame `outer` sits in. */
export function compose(outer: Transform, inner: Transform): Transform {
  return { rotation: multiply(outer.rotation, inner.rotation), translation: add(outer.translation, apply(outer.rotation, inner.translation)) };
}

/** The rotation an orientation vector describes; a zero vector is taken as straight up. */
export function rotationOfOrientation(oX: number, oY: number, oZ: number, thetaDeg: number): Rotation {
  const axis = unitVector({ x: oX, y: oY, z: oZ }) ?? Z_AXIS;
  return matrixOfQuaternion(fromOrientationVector({ ...axis, th: thetaDeg * DEGREE }));
}

/** The orientation vector of a rotation, theta in degrees. */
export function orientationOfRotation(r: Rotation): { oX: number; oY: number; oZ: number; theta: number } {
  const theta = orientationVectorOf(quaternionOfMatrix(r)).th / DEGREE;
  // The frame's z axis, read exactly from the matrix's third column.
  return { oX: r[2], oY: r[5], oZ: r[8], theta: theta === 0 ? 0 : theta };
}

export function transformOfPose(pose: Pose): Transform {
  return { rotation: rotationOfOrientation(pose.oX, pose.oY, pose.oZ, pose.theta), translation: [pose.x, pose.y, pose.z] };
}

export function poseOfTransform(t: Transform): Pose {
  const [x, y, z] = t.translation;
  return { x, y, z, ...orientationOfRotation(t.rotation) };
}

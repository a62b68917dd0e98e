// Poses as the API writes them (a position in millimetres and an orientation vector: the unit
// vector the frame's z axis points along, and theta, the turn in degrees about it) and as
// kinematics computes with them (a rotation and a translation).
//
// An orientation vector (ox, oy, oz, theta) is the rotation Rz(lon) * Ry(lat) * Rz(theta), where
// lat = acos(oz) and lon = atan2(oy, ox): the z axis tilted down from straight up by lat, towards
// lon, then turned by theta about itself. Straight up or down, lon is taken as 0, so theta alone
// says how the frame is turned. These are the conventions of Viam's spatial math, so a pose reads
// the same on every client.
import { aboutAxis, apply, add, IDENTITY, multiply, transpose, type Rotation, type Vec3 } from "./rotation.js";

export interface Pose {
  x: number;
  y: number;
  z: number;
  oX: number;
  oY: number;
  oZ: number;
  /** Degrees. */
  theta: number;
}

/** A frame placed in another: first rotated, then moved by `translation` (mm). */
export interface Transform {
  readonly rotation: Rotation;
  readonly translation: Vec3;
}

export const ORIGIN: Transform = { rotation: IDENTITY, translation: [0, 0, 0] };

const Y: Vec3 = [0, 1, 0];
const Z: Vec3 = [0, 0, 1];
const RADIANS = Math.PI / 180;

// How close to straight up or down the vector must be for theta alone to describe the turn.
const POLE = 1e-4;

/** `inner`, given in `outer`'s frame, placed in the frame `outer` sits in. */
export function compose(outer: Transform, inner: Transform): Transform {
  return { rotation: multiply(outer.rotation, inner.rotation), translation: add(outer.translation, apply(outer.rotation, inner.translation)) };
}

/** The rotation an orientation vector describes; a zero vector is taken as straight up. */
export function rotationOfOrientation(oX: number, oY: number, oZ: number, thetaDeg: number): Rotation {
  const length = Math.hypot(oX, oY, oZ);
  const [x, y, z] = length === 0 ? [0, 0, 1] : [oX / length, oY / length, oZ / length];
  const lat = Math.acos(Math.min(1, Math.max(-1, z)));
  const lon = 1 - Math.abs(z) > POLE ? Math.atan2(y, x) : 0;
  return multiply(multiply(aboutAxis(Z, lon), aboutAxis(Y, lat)), aboutAxis(Z, thetaDeg * RADIANS));
}

/** The orientation vector of a rotation, theta in degrees. */
export function orientationOfRotation(r: Rotation): { oX: number; oY: number; oZ: number; theta: number } {
  // The frame's z axis is the rotation's third column.
  const [oX, oY, oZ] = [r[2], r[5], r[8]];
  const lat = Math.acos(Math.min(1, Math.max(-1, oZ)));
  const lon = 1 - Math.abs(oZ) > POLE ? Math.atan2(oY, oX) : 0;
  // What is left once the tilt is undone is a turn about z by theta.
  const turn = multiply(transpose(multiply(aboutAxis(Z, lon), aboutAxis(Y, lat))), r);
  const theta = Math.atan2(turn[3], turn[0]) / RADIANS;
  return { oX, oY, oZ, theta: theta === 0 ? 0 : theta };
}

export function transformOfPose(pose: Pose): Transform {
  return { rotation: rotationOfOrientation(pose.oX, pose.oY, pose.oZ, pose.theta), translation: [pose.x, pose.y, pose.z] };
}

export function poseOfTransform(t: Transform): Pose {
  const [x, y, z] = t.translation;
  return { x, y, z, ...orientationOfRotation(t.rotation) };
}

// A pose: where a frame's origin is (millimetres) and how it is turned, both in another frame.
// Poses compose like functions: compose(a, b) is b's pose, written in b's parent a, seen from a's
// own parent. On the wire (viam.common.v1.Pose) the rotation is an orientation vector in degrees.
import { fromOrientationVector, orientationVectorOf } from "./orientation.js";
import { conjugate, IDENTITY_ROTATION, multiply, normalize, rotate, unitVector, Z_AXIS, type Quaternion, type Vector3 } from "./quaternion.js";

export interface Pose {
  point: Vector3;
  rotation: Quaternion;
}

export const IDENTITY_POSE: Pose = { point: { x: 0, y: 0, z: 0 }, rotation: IDENTITY_ROTATION };

/** The pose `inner` (given in the frame that `outer` places) seen from `outer`'s own frame. */
export function composePoses(outer: Pose, inner: Pose): Pose {
  const moved = rotate(outer.rotation, inner.point);
  return {
    point: { x: outer.point.x + moved.x, y: outer.point.y + moved.y, z: outer.point.z + moved.z },
    // Renormalised so that long chains do not drift off length 1.
    rotation: normalize(multiply(outer.rotation, inner.rotation)) ?? IDENTITY_ROTATION,
  };
}

/** The pose that undoes `pose`: composed with it either way round, the identity. */
export function invertPose(pose: Pose): Pose {
  const back = conjugate(pose.rotation);
  const point = rotate(back, pose.point);
  return { point: { x: -point.x, y: -point.y, z: -point.z }, rotation: back };
}

/** viam.common.v1.Pose's fields: millimetres, an orientation vector (o_x, o_y, o_z) and theta in degrees. */
export interface WirePose {
  x: number;
  y: number;
  z: number;
  oX: number;
  oY: number;
  oZ: number;
  theta: number;
}

const DEGREE = Math.PI / 180;

/** A pose from the wire. An orientation vector of no length points along z, as Viam reads it. */
export function poseFromWire(wire: WirePose): Pose {
  const axis = unitVector({ x: wire.oX, y: wire.oY, z: wire.oZ }) ?? Z_AXIS;
  return { point: { x: wire.x, y: wire.y, z: wire.z }, rotation: fromOrientationVector({ ...axis, th: wire.theta * DEGREE }) };
}

export function poseToWire(pose: Pose): WirePose {
  const ov = orientationVectorOf(pose.rotation);
  return { x: pose.point.x, y: pose.point.y, z: pose.point.z, oX: ov.x, oY: ov.y, oZ: ov.z, theta: ov.th / DEGREE };
}

// Points and rotations: a rotation is held one way only, as a unit quaternion (w + xi + yj + zk),
// whatever form a configuration or a call wrote it in. Rotating v by q is q v q*; composing "a
// then, in a's frame, b" is the product a b.

export interface Vector3 {
  x: number;
  y: number;
  z: number;
}

export interface Quaternion {
  w: number;
  x: number;
  y: number;
  z: number;
}

export const IDENTITY_ROTATION: Quaternion = { w: 1, x: 0, y: 0, z: 0 };

/** The Hamilton product a b: the rotation b, then a (b taken in a's frame). */
export function multiply(a: Quaternion, b: Quaternion): Quaternion {
  return {
    w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
    x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
    y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
    z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
  };
}

/** The inverse of a unit quaternion. */
export function conjugate(q: Quaternion): Quaternion {
  return { w: q.w, x: -q.x, y: -q.y, z: -q.z };
}

/** v rotated by the unit quaternion q. */
export function rotate(q: Quaternion, v: Vector3): Vector3 {
  // q v q*, written out: v + 2w (u x v) + 2 u x (u x v), u the vector part of q.
  const tx = 2 * (q.y * v.z - q.z * v.y);
  const ty = 2 * (q.z * v.x - q.x * v.z);
  const tz = 2 * (q.x * v.y - q.y * v.x);
  return {
    x: v.x + q.w * tx + (q.y * tz - q.z * ty),
    y: v.y + q.w * ty + (q.z * tx - q.x * tz),
    z: v.z + q.w * tz + (q.x * ty - q.y * tx),
  };
}

/** q scaled to length 1, or undefined when it has no length (or is not finite). */
export function normalize(q: Quaternion): Quaternion | undefined {
  // Scaled by the largest part first, so that lengths past 1e154 do not overflow to Infinity.
  const largest = Math.max(Math.abs(q.w), Math.abs(q.x), Math.abs(q.y), Math.abs(q.z));
  if (!(largest > 0) || largest === Infinity) return undefined;
  const w = q.w / largest;
  const x = q.x / largest;
  const y = q.y / largest;
  const z = q.z / largest;
  const length = Math.sqrt(w * w + x * x + y * y + z * z);
  return { w: w / length, x: x / length, y: y / length, z: z / length };
}

/** v scaled to length 1, or undefined when it has no length (or is not finite). */
export function unitVector(v: Vector3): Vector3 | undefined {
  const q = normalize({ w: 0, x: v.x, y: v.y, z: v.z });
  return q && { x: q.x, y: q.y, z: q.z };
}

/** The rotation by `angle` radians about the unit vector `axis`. */
export function aboutAxis(axis: Vector3, angle: number): Quaternion {
  const s = Math.sin(angle / 2);
  return { w: Math.cos(angle / 2), x: axis.x * s, y: axis.y * s, z: axis.z * s };
}

export const X_AXIS: Vector3 = { x: 1, y: 0, z: 0 };
export const Y_AXIS: Vector3 = { x: 0, y: 1, z: 0 };
export const Z_AXIS: Vector3 = { x: 0, y: 0, z: 1 };

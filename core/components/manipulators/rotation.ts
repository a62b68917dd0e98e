// Rotations in three dimensions as 3x3 matrices, and the few operations kinematics needs: turning
// about an axis, composing, applying, and the rotation vector (axis times angle) that measures
// how far one orientation is from another; and the way to and from the frame system's unit
// quaternions, which own the conventions of Viam's orientations.
import type { Quaternion } from "../../frame/index.js";

export type Vec3 = readonly [number, number, number];

/** Row-major: [r00, r01, r02, r10, r11, r12, r20, r21, r22]. */
export type Rotation = readonly [number, number, number, number, number, number, number, number, number];

export const IDENTITY: Rotation = [1, 0, 0, 0, 1, 0, 0, 0, 1];

export function add(a: Vec3, b: Vec3): Vec3 {
  return [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
}

export function subtract(a: Vec3, b: Vec3): Vec3 {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}

export function scale(v: Vec3, k: number): Vec3 {
  return [v[0] * k, v[1] * k, v[2] * k];
}

export function cross(a: Vec3, b: Vec3): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

export function norm(v: Vec3): number {
  return Math.hypot(v[0], v[1], v[2]);
}

/** The rotation by `radians` about the unit vector `axis` (Rodrigues' formula). */
export function aboutAxis(axis: Vec3, radians: number): Rotation {
  const [x, y, z] = axis;
  const c = Math.cos(radians);
  const s = Math.sin(radians);
  const t = 1 - c;
  return [t * x * x + c, t * x * y - s * z, t * x * z + s * y, t * x * y + s * z, t * y * y + c, t * y * z - s * x, t * x * z - s * y, t * y * z + s * x, t * z * z + c];
}

export function multiply(a: Rotation, b: Rotation): Rotation {
  const out = new Array<number>(9);
  for (let row = 0; row < 3; row++) {
    for (let col = 0; col < 3; col++) {
      out[row * 3 + col] = a[row * 3]! * b[col]! + a[row * 3 + 1]! * b[3 + col]! + a[row * 3 + 2]! * b[6 + col]!;
    }
  }
  return out as unknown as Rotation;
}

export function transpose(r: Rotation): Rotation {
  return [r[0], r[3], r[6], r[1], r[4], r[7], r[2], r[5], r[8]];
}

export function apply(r: Rotation, v: Vec3): Vec3 {
  return [r[0] * v[0] + r[1] * v[1] + r[2] * v[2], r[3] * v[0] + r[4] * v[1] + r[5] * v[2], r[6] * v[0] + r[7] * v[1] + r[8] * v[2]];
}

/** The rotation vector of `r`: its axis scaled by its angle in radians (0 to pi). */
export function rotationVector(r: Rotation): Vec3 {
  const cosAngle = Math.min(1, Math.max(-1, (r[0] + r[4] + r[8] - 1) / 2));
  const angle = Math.acos(cosAngle);
  // The skew-symmetric part carries the axis times sin(angle).
  const skew: Vec3 = [(r[7] - r[5]) / 2, (r[2] - r[6]) / 2, (r[3] - r[1]) / 2];
  if (angle < 1e-6) return skew;
  if (Math.PI - angle > 1e-4) return scale(skew, angle / Math.sin(angle));
  // Near a half turn sin(angle) vanishes: read the axis from the symmetric part instead,
  // from its largest diagonal entry, with the sign the skew part still gives.
  const diagonal = [r[0], r[4], r[8]];
  const i = diagonal.indexOf(Math.max(...diagonal));
  const axis = [0, 0, 0];
  axis[i] = Math.sqrt(Math.max(0, (diagonal[i]! + 1) / 2));
  for (let j = 0; j < 3; j++) if (j !== i) axis[j] = (r[i * 3 + j]! + r[j * 3 + i]!) / (4 * axis[i]!);
  const sign = skew[i]! < 0 ? -1 : 1;
  const unit: Vec3 = [axis[0]!, axis[1]!, axis[2]!];
  return scale(unit, (sign * angle) / norm(unit));
}

// Entries this close to zero are rounding left by the quaternion's half angles: made exactly zero,
// an axis-aligned rotation stays exact (and a frame pointing straight up reads 0, not -0).
const ROUNDING = 1e-15;
const exact = (v: number) => (Math.abs(v) < ROUNDING ? 0 : v);

/** The matrix of a unit quaternion. */
export function matrixOfQuaternion({ w, x, y, z }: Quaternion): Rotation {
  const m = [
    1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
  ].map(exact);
  return m as unknown as Rotation;
}

/** The unit quaternion of a rotation matrix (from its largest diagonal term, for precision). */
export function quaternionOfMatrix(r: Rotation): Quaternion {
  const trace = r[0] + r[4] + r[8];
  if (trace > 0) {
    const s = 2 * Math.sqrt(trace + 1);
    return { w: s / 4, x: (r[7] - r[5]) / s, y: (r[2] - r[6]) / s, z: (r[3] - r[1]) / s };
  }
  if (r[0] > r[4] && r[0] > r[8]) {
    const s = 2 * Math.sqrt(1 + r[0] - r[4] - r[8]);
    return { w: (r[7] - r[5]) / s, x: s / 4, y: (r[1] + r[3]) / s, z: (r[2] + r[6]) / s };
  }
  if (r[4] > r[8]) {
    const s = 2 * Math.sqrt(1 + r[4] - r[0] - r[8]);
    return { w: (r[2] - r[6]) / s, x: (r[1] + r[3]) / s, y: s / 4, z: (r[5] + r[7]) / s };
  }
  const s = 2 * Math.sqrt(1 + r[8] - r[0] - r[4]);
  return { w: (r[3] - r[1]) / s, x: (r[2] + r[6]) / s, y: (r[5] + r[7]) / s, z: s / 4 };
}

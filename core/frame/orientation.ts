// The orientation forms a configuration may write, Viam's five, each turned into the one rotation
// form (a unit quaternion), and back:
//   ov_degrees, ov_radians  {x, y, z, th}: the frame's z axis points along (x, y, z), then turns
//                           th about it (degrees or radians); Viam's orientation vector
//   euler_angles            {roll, pitch, yaw} radians: about z by yaw, then y by pitch, then x by roll
//   axis_angles             {x, y, z, th}: th radians about the axis (x, y, z)
//   quaternion              {w, x, y, z}
// A key left out is 0, as Viam reads them. Axes and quaternions need not be of length 1, but a
// zero length names no rotation and is refused.
import {
  aboutAxis,
  conjugate,
  multiply,
  normalize,
  rotate,
  unitVector,
  Y_AXIS,
  Z_AXIS,
  type Quaternion,
  type Vector3,
} from "./quaternion.js";

export type OrientationType = "ov_degrees" | "ov_radians" | "euler_angles" | "axis_angles" | "quaternion";

/** The keys of each form's value. */
export const orientationKeys: Readonly<Record<OrientationType, readonly string[]>> = {
  ov_degrees: ["x", "y", "z", "th"],
  ov_radians: ["x", "y", "z", "th"],
  euler_angles: ["roll", "pitch", "yaw"],
  axis_angles: ["x", "y", "z", "th"],
  quaternion: ["w", "x", "y", "z"],
};

/** An orientation's value as written: numbers by key, absent keys 0. */
export type OrientationValue = { readonly [key: string]: number | undefined };

/** An orientation vector: a unit axis (x, y, z) and a turn `th` about it, in radians. */
export interface OrientationVector extends Vector3 {
  th: number;
}

// Within this distance of a pole (1 - |z|), an orientation vector's axis is taken as the pole
// itself and all of the turn is th: the longitude of the axis means nothing there. Viam's bound.
const POLE = 1e-4;
const DEGREE = Math.PI / 180;

/** The rotation an orientation stands for, or what keeps it from standing for one. */
export function rotationOf(type: OrientationType, value: OrientationValue): { rotation: Quaternion } | { problem: string } {
  const at = (key: string) => value[key] ?? 0;
  const axis = () => unitVector({ x: at("x"), y: at("y"), z: at("z") });
  switch (type) {
    case "ov_degrees":
    case "ov_radians": {
      const unit = axis();
      if (!unit) return { problem: "has an axis (x, y, z) of zero length" };
      return { rotation: fromOrientationVector({ ...unit, th: type === "ov_degrees" ? at("th") * DEGREE : at("th") }) };
    }
    case "axis_angles": {
      const unit = axis();
      if (!unit) return { problem: "has an axis (x, y, z) of zero length" };
      return { rotation: aboutAxis(unit, at("th")) };
    }
    case "euler_angles":
      return { rotation: fromEulerAngles(at("roll"), at("pitch"), at("yaw")) };
    case "quaternion": {
      const rotation = normalize({ w: at("w"), x: at("x"), y: at("y"), z: at("z") });
      return rotation ? { rotation } : { problem: "is a quaternion of zero length" };
    }
  }
}

/** The rotation of an orientation vector whose axis is of length 1. */
export function fromOrientationVector(ov: OrientationVector): Quaternion {
  // Point z along the axis (about z by its longitude, then y by its polar angle), then turn by th.
  const longitude = 1 - Math.abs(ov.z) > POLE ? Math.atan2(ov.y, ov.x) : 0;
  const pointing = multiply(aboutAxis(Z_AXIS, longitude), aboutAxis(Y_AXIS, Math.acos(clamp(ov.z))));
  return multiply(pointing, aboutAxis(Z_AXIS, ov.th));
}

/** The orientation vector of a rotation, th in radians from -pi to pi. */
export function orientationVectorOf(q: Quaternion): OrientationVector {
  const axis = rotate(q, Z_AXIS);
  const z = clamp(axis.z);
  const longitude = 1 - Math.abs(z) > POLE ? Math.atan2(axis.y, axis.x) : 0;
  // What is left once the axis is pointed is a turn about z.
  const pointing = multiply(aboutAxis(Z_AXIS, longitude), aboutAxis(Y_AXIS, Math.acos(z)));
  const twist = multiply(conjugate(pointing), q);
  return { x: axis.x, y: axis.y, z: axis.z, th: halfTurns(2 * Math.atan2(twist.z, twist.w)) };
}

/** The rotation of Euler angles: about z by yaw, then the new y by pitch, then the new x by roll. */
export function fromEulerAngles(roll: number, pitch: number, yaw: number): Quaternion {
  return multiply(multiply(aboutAxis(Z_AXIS, yaw), aboutAxis(Y_AXIS, pitch)), aboutAxis({ x: 1, y: 0, z: 0 }, roll));
}

/** The Euler angles of a rotation; pitch from -pi/2 to pi/2 (at those two, yaw is 0). */
export function eulerAnglesOf(q: Quaternion): { roll: number; pitch: number; yaw: number } {
  // Read from the rotation matrix, whose pitch (atan2 of a sine and a cosine) stays precise near
  // +-pi/2 where asin of the sine alone would not.
  const { w, x, y, z } = q;
  const cosPitch = Math.hypot(1 - 2 * (y * y + z * z), 2 * (x * y + w * z));
  const pitch = Math.atan2(2 * (w * y - x * z), cosPitch);
  if (cosPitch < 1e-9) {
    // Gimbal lock: roll and yaw turn about the same axis; all of it is put in roll.
    return { roll: Math.atan2(2 * (w * x - y * z), 1 - 2 * (x * x + z * z)), pitch, yaw: 0 };
  }
  return {
    roll: Math.atan2(2 * (y * z + w * x), 1 - 2 * (x * x + y * y)),
    pitch,
    yaw: Math.atan2(2 * (x * y + w * z), 1 - 2 * (y * y + z * z)),
  };
}

/** The axis and angle (radians) of a rotation; no rotation is 0 about z. */
export function axisAngleOf(q: Quaternion): OrientationVector {
  const length = Math.sqrt(q.x * q.x + q.y * q.y + q.z * q.z);
  if (length === 0) return { x: 0, y: 0, z: 1, th: 0 };
  // Taken with w >= 0, so the angle lies from -pi to pi.
  const sign = q.w < 0 ? -1 : 1;
  return { x: q.x / length, y: q.y / length, z: q.z / length, th: sign * 2 * Math.atan2(length, Math.abs(q.w)) };
}

function clamp(value: number): number {
  return value > 1 ? 1 : value < -1 ? -1 : value;
}

/** An angle brought into (-pi, pi], without a negative zero. */
function halfTurns(angle: number): number {
  const turned = angle > Math.PI ? angle - 2 * Math.PI : angle <= -Math.PI ? angle + 2 * Math.PI : angle;
  return turned + 0;
}

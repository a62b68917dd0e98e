// What each side of a differential drive must do for a motion of the whole base: pure arithmetic
// on the base's geometry, so it is checked without motors. Wheel speeds are in revolutions per
// minute, distances in revolutions; positive is forward. A positive angle or angular speed turns
// the base anticlockwise, so the right side runs forward and the left side backward.

export interface BaseGeometry {
  widthMm: number;
  wheelCircumferenceMm: number;
  spinSlipFactor: number;
}

/** A GoFor for every motor of a side: revolutions are never negative, the rpm carries the direction. */
export interface SideGoFor {
  rpm: number;
  revolutions: number;
}

export interface Sides<T> {
  left: T;
  right: T;
}

/** MoveStraight: both sides turn the distance over the wheel's circumference. */
export function straightGoFor(geometry: BaseGeometry, distanceMm: number, mmPerSec: number): Sides<SideGoFor> {
  const direction = Math.sign(distanceMm) * Math.sign(mmPerSec);
  const side = {
    rpm: (direction * Math.abs(mmPerSec) * 60) / geometry.wheelCircumferenceMm,
    revolutions: Math.abs(distanceMm) / geometry.wheelCircumferenceMm,
  };
  return { left: side, right: { ...side } };
}

/** Spin: each wheel runs along the circle the base turns on, its diameter the width, more by the slip factor. */
export function spinGoFor(geometry: BaseGeometry, angleDeg: number, degsPerSec: number): Sides<SideGoFor> {
  const perDegree = (geometry.spinSlipFactor * Math.PI * geometry.widthMm) / 360 / geometry.wheelCircumferenceMm;
  const rpm = Math.sign(angleDeg) * Math.sign(degsPerSec) * Math.abs(degsPerSec) * perDegree * 60;
  const revolutions = Math.abs(angleDeg) * perDegree;
  return { left: { rpm: -rpm, revolutions }, right: { rpm, revolutions } };
}

/** SetVelocity: each side's wheel speed for a forward speed (mm/s) and a turn rate (deg/s). */
export function velocityRpm(geometry: BaseGeometry, mmPerSec: number, degsPerSec: number): Sides<number> {
  // The turn adds half the width times the turn rate (in radians) to the right side's ground
  // speed and takes it from the left's; no slip factor, as in Viam's wheeled base.
  const turn = ((geometry.widthMm / 2) * degsPerSec * Math.PI) / 180;
  const rpmOf = (groundMmPerSec: number) => (groundMmPerSec * 60) / geometry.wheelCircumferenceMm;
  return { left: rpmOf(mmPerSec - turn), right: rpmOf(mmPerSec + turn) };
}

/**
 * SetPower: each side's power for a forward and a turning power (-1 to 1), clamped. Backing up
 * mirrors the turn, as a car's steering does: turning left in reverse swings the back to the left.
 */
export function powerSplit(forward: number, turn: number): Sides<number> {
  const clamp = (p: number) => Math.max(-1, Math.min(1, p));
  const outer = forward + turn;
  const inner = forward - turn;
  return forward < 0 ? { left: clamp(outer), right: clamp(inner) } : { left: clamp(inner), right: clamp(outer) };
}

// The base API: the platform a robot moves on. Distances in millimetres, speeds in millimetres
// and degrees per second, power from -1 to 1. Forward is +Y; a positive angle turns the base
// anticlockwise (to its left) about +Z, which is why only `linear.y` and `angular.z` move a
// ground base.
import type { Actuator } from "../apis/actuator.js";
import type { Commandable, Extra } from "../apis/commandable.js";
import type { Vector3 } from "../apis/movement-sensor.js";

export interface BaseProperties {
  widthMeters: number;
  /** 0 for a base that turns in place. */
  turningRadiusMeters: number;
  wheelCircumferenceMeters: number;
}

export interface Base extends Commandable, Actuator {
  /** Drives `distanceMm` at `mmPerSec` (the signs multiply into the direction); resolves once there or stopped. */
  moveStraight(distanceMm: number, mmPerSec: number, extra?: Extra): Promise<void>;
  /** Turns by `angleDeg` at `degsPerSec` (the signs multiply into the direction); resolves once turned or stopped. */
  spin(angleDeg: number, degsPerSec: number, extra?: Extra): Promise<void>;
  /** Runs at these powers, -1 to 1, until told otherwise. */
  setPower(linear: Vector3, angular: Vector3, extra?: Extra): Promise<void>;
  /** Runs at these velocities (mm/s, deg/s) until told otherwise. */
  setVelocity(linear: Vector3, angular: Vector3, extra?: Extra): Promise<void>;
  getProperties(extra?: Extra): Promise<BaseProperties>;
}

// The gantry API: linear axes, each with a length; positions and lengths in millimetres, one
// value per axis.
import type { Actuator } from "../apis/actuator.js";
import type { Commandable, Extra } from "../apis/commandable.js";
import type { KinematicsFile } from "./arm.js";

export interface Gantry extends Commandable, Actuator {
  getPosition(extra?: Extra): Promise<number[]>;
  /** Moves each axis to its position at its speed (mm/s); resolves on arrival (or when stopped or sent elsewhere). */
  moveToPosition(positionsMm: readonly number[], speedsMmPerSec: readonly number[], extra?: Extra): Promise<void>;
  /** Runs the homing sequence; resolves to whether it completed. */
  home(extra?: Extra): Promise<boolean>;
  getLengths(extra?: Extra): Promise<number[]>;
  getKinematics?(extra?: Extra): Promise<KinematicsFile>;
}

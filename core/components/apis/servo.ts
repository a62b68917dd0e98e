// The servo API: an angle in whole degrees.
import type { Actuator } from "./actuator.js";
import type { Commandable, Extra } from "./commandable.js";

export interface Servo extends Commandable, Actuator {
  /** Moves to `angleDeg` and resolves on arrival (or when stopped or sent elsewhere). */
  move(angleDeg: number, extra?: Extra): Promise<void>;
  getPosition(extra?: Extra): Promise<number>;
}

// The gripper API: a hand that opens and grabs.
import type { Actuator } from "../apis/actuator.js";
import type { Commandable, Extra } from "../apis/commandable.js";

export interface Gripper extends Commandable, Actuator {
  open(extra?: Extra): Promise<void>;
  /** Closes on whatever is there; resolves to whether it caught something. */
  grab(extra?: Extra): Promise<boolean>;
  isHoldingSomething(extra?: Extra): Promise<{ holding: boolean; meta: Record<string, unknown> }>;
}

// Anything that moves. StopAll and the session safety stop find every actuator through this
// shape, whatever its API, and stop it.
import type { Resource } from "../../resource/index.js";
import type { Extra } from "./commandable.js";

export interface Actuator {
  /** Halts the movement; a call waiting for the movement to end returns. */
  stop(extra?: Extra): Promise<void>;
  isMoving(): Promise<boolean>;
}

export function isActuator(resource: Resource): resource is Resource & Actuator {
  const r = resource as Partial<Actuator>;
  return typeof r.stop === "function" && typeof r.isMoving === "function";
}

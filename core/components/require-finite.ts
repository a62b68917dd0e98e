// Numbers from a request are checked before they reach hardware: NaN or Infinity on a PWM duty or
// a motor speed would otherwise be written as whatever the backend makes of them.
import { Code, SvcError } from "../errors/index.js";

/** Rejects a number that is not finite, naming the argument. */
export function requireFinite(value: number, what: string): number {
  if (typeof value !== "number" || !isFinite(value)) {
    throw new SvcError(Code.InvalidArgument, `${what} must be a finite number, got ${String(value)}`);
  }
  return value;
}

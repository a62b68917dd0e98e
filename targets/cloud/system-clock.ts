// The one place svc-cloud's Clock meets the machine's own time; everything below main takes a Clock.
import type { Clock } from "../../core/index.js";

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

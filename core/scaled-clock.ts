// A clock on which time runs `factor` times as slow (factor 0.01: a hundred times as fast): every
// delay is multiplied by the factor, and `now` moves by 1/factor of the base clock's movement, so
// that waits and measured durations agree. A part that thinks in minutes (a start timeout, a
// probation, the offline time before a hotspot) runs unchanged under it, and a test sees ten
// minutes pass in six seconds. Factor 1 is the base clock itself.
import type { Clock } from "./clock.js";

export interface ScaledClock extends Clock {
  /** Base-clock milliseconds per millisecond of this clock. */
  readonly factor: number;
}

export function createScaledClock(base: Clock, factor: number): ScaledClock {
  if (!Number.isFinite(factor) || factor <= 0) throw new RangeError(`a clock's time scale must be a positive number (found ${factor})`);
  if (factor === 1) {
    return { factor, now: () => base.now(), setTimeout: (fn, ms) => base.setTimeout(fn, ms), clearTimeout: (handle) => base.clearTimeout(handle) };
  }
  // Time starts out equal to the base clock's, then runs at its own pace.
  const origin = base.now();
  return {
    factor,
    now: () => origin + (base.now() - origin) / factor,
    setTimeout: (fn, ms) => base.setTimeout(fn, Math.max(0, ms) * factor),
    clearTimeout: (handle) => base.clearTimeout(handle),
  };
}

// The wall clock for log entries on Linux. Its timers (de-duplication summaries) never keep the
// process alive on their own.
import type { Clock } from "../../../core/clock.js";

export function createNodeClock(): Clock {
  return {
    now: () => Date.now(),
    setTimeout(fn, ms) {
      const timer = setTimeout(fn, ms);
      timer.unref();
      return timer;
    },
    clearTimeout(handle) {
      clearTimeout(handle as ReturnType<typeof setTimeout>);
    },
  };
}

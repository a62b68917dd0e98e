// The wait between two attempts of a stream that follows svc-cloud: `ms` on the clock, cut short
// when the follower is closed.
import type { Clock } from "../../../core/index.js";

/** Waits `ms` on the clock, or less when `signal` aborts. */
export function pauseUnless(clock: Clock, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clock.clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = clock.setTimeout(done, ms);
    signal.addEventListener("abort", done);
  });
}

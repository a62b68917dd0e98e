// The core's manual clock, driven for async code: after each timer fires, every promise it
// started is allowed to settle before the next one fires.
import { createManualClock, type ManualClock } from "../../core/manual-clock.js";

export interface FakeClock extends ManualClock {
  /** Moves time forward by `ms`, firing due timers in order and settling promises after each. */
  advance(ms: number): Promise<void>;
  /** Lets every promise chain that is ready run to completion (no time passes). */
  settle(): Promise<void>;
}

export function createFakeClock(start = 1_000_000): FakeClock {
  const clock = createManualClock(start);
  const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
  return {
    ...clock,
    async advance(ms) {
      const target = clock.now() + ms;
      await settle();
      while (clock.fireNext(target)) await settle();
      clock.advance(target - clock.now());
      await settle();
    },
    settle,
  };
}

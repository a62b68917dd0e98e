// The Node clock: wall time and Node's timers, the one place on Linux where the core's Clock
// meets `Date.now` and `setTimeout`. The log's timers (de-duplication summaries) never keep the
// process alive on their own; a program's own waits (a restart backoff, the next update check)
// do, as Node's timers do: `keepAlive`.
import type { Clock } from "../../../core/clock.js";

export interface NodeClockOptions {
  /** Whether a pending timer keeps the process alive. Default false. */
  keepAlive?: boolean;
}

export function createNodeClock(options: NodeClockOptions = {}): Clock {
  const keepAlive = options.keepAlive === true;
  return {
    now: () => Date.now(),
    setTimeout(fn, ms) {
      const timer = setTimeout(fn, ms);
      if (!keepAlive) timer.unref();
      return timer;
    },
    clearTimeout(handle) {
      clearTimeout(handle as ReturnType<typeof setTimeout>);
    },
  };
}

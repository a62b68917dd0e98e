// A clock that moves only when told to, for tests and for scenarios that must give the same
// answer on Node and in XS. Timers due at the same moment fire in the order they were set.
import type { Clock } from "../clock.js";

export interface ManualClock extends Clock {
  /** Moves time forward by `ms`, firing every timer that falls due on the way, at its due time. */
  advance(ms: number): void;
  /** How many timers are waiting. */
  pending(): number;
}

interface Timer {
  id: number;
  due: number;
  fn: () => void;
}

export function createManualClock(start = 0): ManualClock {
  let now = start;
  let nextId = 1;
  let timers: Timer[] = [];

  function nextDue(limit: number): Timer | undefined {
    let best: Timer | undefined;
    for (const timer of timers) if (timer.due <= limit && (best === undefined || timer.due < best.due)) best = timer;
    return best;
  }

  return {
    now: () => now,
    setTimeout(fn, ms) {
      const timer = { id: nextId++, due: now + Math.max(0, ms), fn };
      timers.push(timer);
      return timer.id;
    },
    clearTimeout(handle) {
      timers = timers.filter((t) => t.id !== handle);
    },
    advance(ms) {
      const target = now + ms;
      for (let timer = nextDue(target); timer !== undefined; timer = nextDue(target)) {
        const fired = timer;
        timers = timers.filter((t) => t !== fired);
        now = fired.due;
        fired.fn();
      }
      now = target;
    },
    pending: () => timers.length,
  };
}

// A clock that moves only when told to, for tests and for scenarios that must give the same
// answer on Node and in XS. Timers due at the same moment fire in the order they were set.
import type { Clock } from "./clock.js";

export interface ManualClock extends Clock {
  /** Moves time forward by `ms`, firing every timer that falls due on the way, at its due time. */
  advance(ms: number): void;
  /**
   * Fires the earliest timer due at or before `limit` (time moves to its due time) and returns
   * true, or returns false when none is due. Lets async tests settle promises between timers.
   */
  fireNext(limit: number): boolean;
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

  function fireNext(limit: number): boolean {
    let next: Timer | undefined;
    for (const timer of timers) if (timer.due <= limit && (next === undefined || timer.due < next.due)) next = timer;
    if (next === undefined) return false;
    const fired = next;
    timers = timers.filter((t) => t !== fired);
    now = Math.max(now, fired.due);
    fired.fn();
    return true;
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
      while (fireNext(target));
      now = target;
    },
    fireNext,
    pending: () => timers.length,
  };
}

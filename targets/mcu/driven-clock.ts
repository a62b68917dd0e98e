// A clock whose time is told from outside, for an XS host without timers: the host passes the
// time with each command and moves the clock to it, which fires every timer due by then in due
// order, letting promise jobs run after each one (so a motion's next step sees the previous
// step's effects). The host learns the next deadline from `nextDue` and comes back by then.
import type { Clock } from "../../core/index.js";

export interface DrivenClock extends Clock {
  /** Moves time to `now` (never backwards), firing each timer due by then. */
  advanceTo(now: number): Promise<void>;
  /** When the earliest timer is due, or undefined when none waits. */
  nextDue(): number | undefined;
}

export interface DrivenClockOptions {
  start: number;
  /** Lets pending promise jobs run; by default a few dozen turns of the job queue. */
  drain?: () => Promise<void>;
}

interface Timer {
  id: number;
  due: number;
  fn: () => void;
}

async function drainJobs(): Promise<void> {
  for (let i = 0; i < 32; i++) await Promise.resolve();
}

export function createDrivenClock(options: DrivenClockOptions): DrivenClock {
  const drain = options.drain ?? drainJobs;
  let now = options.start;
  let nextId = 1;
  // Kept in due order (then in the order set), so the next one is always first.
  const timers: Timer[] = [];

  function insert(timer: Timer): void {
    let i = timers.length;
    while (i > 0 && timers[i - 1]!.due > timer.due) i--;
    timers.splice(i, 0, timer);
  }

  return {
    now: () => now,
    setTimeout(fn, ms) {
      const timer = { id: nextId++, due: now + Math.max(0, ms || 0), fn };
      insert(timer);
      return timer.id;
    },
    clearTimeout(handle) {
      const i = timers.findIndex((t) => t.id === handle);
      if (i >= 0) timers.splice(i, 1);
    },
    async advanceTo(target) {
      for (;;) {
        const next = timers[0];
        if (next === undefined || next.due > target) break;
        timers.shift();
        now = Math.max(now, next.due);
        next.fn();
        await drain();
      }
      now = Math.max(now, target);
      await drain();
    },
    nextDue: () => timers[0]?.due,
  };
}

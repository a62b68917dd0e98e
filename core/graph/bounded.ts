// Work with limits: a promise settled within a deadline (what arrives after it is handed to a
// callback, so a late resource can still be closed) and a pool running at most N tasks at once.
import type { Clock } from "../clock.js";

export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown; timedOut: boolean };

/**
 * Starts `work` and settles with its outcome, or with a timeout after `ms`. Whatever `work`
 * produces after the timeout goes to `late`. A throw from `work` itself counts as a failure.
 */
export function settleWithin<T>(clock: Clock, ms: number, work: () => Promise<T>, late: (outcome: Settled<T>) => void): Promise<Settled<T>> {
  return new Promise((resolve) => {
    let done = false;
    const timer = clock.setTimeout(() => {
      if (done) return;
      done = true;
      resolve({ ok: false, error: undefined, timedOut: true });
    }, ms);
    let running: Promise<T>;
    try {
      running = Promise.resolve(work());
    } catch (thrown) {
      running = Promise.reject(thrown);
    }
    running.then(
      (value) => {
        if (done) return late({ ok: true, value });
        done = true;
        clock.clearTimeout(timer);
        resolve({ ok: true, value });
      },
      (error: unknown) => {
        if (done) return late({ ok: false, error, timedOut: false });
        done = true;
        clock.clearTimeout(timer);
        resolve({ ok: false, error, timedOut: false });
      },
    );
  });
}

/** Runs `task` on every item, at most `cap` at a time; resolves when all have finished. */
export async function runPool<T>(items: readonly T[], cap: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await task(items[next++]!);
  };
  const workers: Promise<void>[] = [];
  const count = Math.max(1, Math.min(cap, items.length));
  for (let w = 0; w < count; w++) workers.push(worker());
  await Promise.all(workers);
}

// Work with limits: a promise settled within a deadline (what arrives after it is handed to a
// callback, so a late resource can still be closed) and a pool running at most N tasks at once.
import type { Clock } from "../clock.js";

export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown; timedOut: boolean };

/**
 * Starts `work` and settles with its outcome, or with a timeout after `ms`. Whatever `work`
 * produces after the timeout goes to `late`. A throw from `work` itself counts as a failure.
 */
export function settleWithin<T>(clock: Clock, ms: number, work: () => Promise<T>, late: (outcome: Settled<T>) => void): Promise<Settled<T>> {
  const deadline = new Deadline(clock, late);
  return new Promise((resolve) => deadline.start(resolve, ms, work));
}

/**
 * One race of work against its deadline. A class, so that every resource built or closed shares
 * its methods: on a microcontroller each closure made per call carries a copy of its code.
 */
class Deadline<T> {
  private done = false;
  private timer: unknown;
  private resolve: (outcome: Settled<T>) => void = noResolve;

  constructor(
    private readonly clock: Clock,
    private readonly late: (outcome: Settled<T>) => void,
  ) {}

  start(resolve: (outcome: Settled<T>) => void, ms: number, work: () => Promise<T>): void {
    this.resolve = resolve;
    this.timer = this.clock.setTimeout(() => this.expire(), ms);
    let running: Promise<T>;
    try {
      running = Promise.resolve(work());
    } catch (thrown) {
      running = Promise.reject(thrown);
    }
    running.then(
      (value) => this.finish({ ok: true, value }),
      (error: unknown) => this.finish({ ok: false, error, timedOut: false }),
    );
  }

  private expire(): void {
    if (this.done) return;
    this.done = true;
    this.resolve({ ok: false, error: undefined, timedOut: true });
  }

  private finish(outcome: Settled<T>): void {
    if (this.done) return this.late(outcome);
    this.done = true;
    this.clock.clearTimeout(this.timer);
    this.resolve(outcome);
  }
}

const noResolve = () => {};

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

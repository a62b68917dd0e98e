// Axes (an arm's joints, a gantry's carriages) travelling to new values over time, each in a
// straight line at its own pace, on the machine's clock. A move that takes no time lands at once;
// a new move or a stop ends the one under way where it has got to, and its caller is answered.
import type { Clock } from "../../clock.js";

export interface JointMotion {
  /** Every axis's value now. */
  values(): number[];
  /**
   * Moves axis i to targets[i] in durationsMs[i]; resolves on arrival (true), or when stopped or
   * sent elsewhere first (false).
   */
  moveTo(targets: readonly number[], durationsMs: readonly number[]): Promise<boolean>;
  isMoving(): boolean;
  /** Ends the move under way where it is. */
  stop(): void;
}

export function createJointMotion(clock: Clock, initial: readonly number[]): JointMotion {
  // The move under way: axis i from from[i] (at `start`) to to[i] (at ends[i]), milliseconds.
  let from = [...initial];
  let to = [...initial];
  let start = clock.now();
  let ends = initial.map(() => start);
  let timer: unknown;
  let waiter: ((arrived: boolean) => void) | undefined;

  const valueAt = (i: number, now: number) => (now >= ends[i]! ? to[i]! : from[i]! + ((to[i]! - from[i]!) * (now - start)) / (ends[i]! - start));
  const valuesAt = (now: number) => to.map((_, i) => valueAt(i, now));

  const answer = (arrived: boolean) => {
    if (timer !== undefined) clock.clearTimeout(timer);
    timer = undefined;
    const done = waiter;
    waiter = undefined;
    done?.(arrived);
  };
  const holdAt = (values: number[], now: number) => {
    from = values;
    to = [...values];
    start = now;
    ends = values.map(() => now);
  };
  const halt = () => {
    const now = clock.now();
    holdAt(valuesAt(now), now);
    answer(false);
  };

  return {
    values: () => valuesAt(clock.now()),
    moveTo(targets, durationsMs) {
      halt();
      const longest = Math.max(0, ...durationsMs);
      if (longest === 0) {
        holdAt([...targets], start);
        return Promise.resolve(true);
      }
      to = [...targets];
      ends = durationsMs.map((ms) => start + ms);
      return new Promise<boolean>((resolve) => {
        waiter = resolve;
        // On arrival the axes are exactly at their targets, whatever the clock's granularity.
        timer = clock.setTimeout(() => {
          timer = undefined;
          holdAt([...to], clock.now());
          answer(true);
        }, longest);
      });
    },
    isMoving: () => clock.now() < Math.max(start, ...ends) || waiter !== undefined,
    stop: halt,
  };
}

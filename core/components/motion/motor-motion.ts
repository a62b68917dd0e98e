// How far a motor has turned, as a function of time: one constant-speed segment at a time, the
// current one optionally ending after a set distance. The position is computed from the clock
// whenever it is asked for, so it and `isMoving` are right at every moment, whether or not the
// end-of-move timer has fired yet.
import type { Clock } from "../../clock.js";

export interface MotorMotion {
  /** Revolutions turned since creation, signed. */
  turned(): number;
  isMoving(): boolean;
  /**
   * Turns at `rpm` (signed) until told otherwise, or, with `distance`, turns that many
   * revolutions (signed; the sign of `rpm` is ignored) at `|rpm|` and resolves on arrival.
   * A new command or `halt` ends the one before it, whose promise then resolves.
   */
  run(rpm: number, distance?: number): Promise<void>;
  halt(): void;
}

export interface MotorMotionOptions {
  clock: Clock;
  /** Called when a move of set distance arrives (not when a command ends it). */
  onArrive?: () => void;
}

const MS_PER_MINUTE = 60_000;

export function createMotorMotion(options: MotorMotionOptions): MotorMotion {
  const { clock, onArrive } = options;
  // The segment: from `origin` revolutions at time `since`, turning at `rpm`, until `end` if set.
  let origin = 0;
  let since = clock.now();
  let rpm = 0;
  let end: number | undefined;
  let endTurned = 0;
  let timer: unknown;
  let waiter: (() => void) | undefined;

  const at = (now: number): number => {
    if (rpm === 0) return origin;
    if (end !== undefined && now >= end) return endTurned;
    // Multiply before dividing: whole milliseconds at whole RPM then land on exact revolutions.
    return origin + (rpm * (now - since)) / MS_PER_MINUTE;
  };

  const endSegment = () => {
    const now = clock.now();
    origin = at(now);
    since = now;
    rpm = 0;
    end = undefined;
    if (timer !== undefined) clock.clearTimeout(timer);
    timer = undefined;
    const done = waiter;
    waiter = undefined;
    done?.();
  };

  const arrive = () => {
    timer = undefined;
    origin = endTurned;
    since = end ?? clock.now();
    rpm = 0;
    end = undefined;
    const done = waiter;
    waiter = undefined;
    onArrive?.();
    done?.();
  };

  return {
    turned: () => at(clock.now()),
    isMoving() {
      if (rpm === 0) return false;
      return end === undefined || clock.now() < end;
    },
    run(speed, distance) {
      endSegment();
      if (speed === 0 || distance === 0) return Promise.resolve();
      if (distance === undefined) {
        rpm = speed;
        return Promise.resolve();
      }
      const magnitude = Math.abs(speed);
      const ms = (Math.abs(distance) / magnitude) * MS_PER_MINUTE;
      rpm = distance > 0 ? magnitude : -magnitude;
      end = since + ms;
      endTurned = origin + distance;
      return new Promise<void>((resolve) => {
        waiter = resolve;
        timer = clock.setTimeout(arrive, ms);
      });
    },
    halt: endSegment,
  };
}

// What every built-in motor does with its commands, whatever drives it: power and RPM checked
// and clamped, GoFor and GoTo turned into timed moves, and the power actually applied reported
// through `onPower` (a GPIO motor writes it to its pins; a fake motor has nothing to drive).
import type { Clock } from "../../clock.js";
import type { LoggerLike } from "../../resource/index.js";
import { Code, SvcError } from "../../errors/index.js";
import { requireFinite } from "../require-finite.js";
import type { MotorPowerState } from "../apis/motor.js";
import { createMotorMotion } from "./motor-motion.js";

export interface MotorControl {
  setPower(power: number): void;
  goFor(rpm: number, revolutions: number): Promise<void>;
  /** Turns `distance` revolutions (signed) at `|rpm|`. */
  goBy(rpm: number, distance: number): Promise<void>;
  setRPM(rpm: number): void;
  stop(): void;
  isPowered(): MotorPowerState;
  isMoving(): boolean;
  /** Revolutions turned since the motor was built, signed. */
  turned(): number;
}

export interface MotorControlOptions {
  clock: Clock;
  maxRpm: number;
  logger: LoggerLike;
  /** The power the motor runs at from now on, -1 to 1; called again with 0 when a move arrives. */
  onPower?: (power: number) => void;
}

export function createMotorControl(options: MotorControlOptions): MotorControl {
  const { clock, maxRpm, logger, onPower } = options;
  let power = 0;

  const apply = (next: number) => {
    onPower?.(next);
    power = next;
  };
  const motion = createMotorMotion({
    clock,
    onArrive() {
      // A timer callback: there is no caller to hand a pin failure to, so it is logged.
      try {
        apply(0);
      } catch (thrown) {
        logger.error("could not stop the motor at the end of its move", { error: String(thrown) });
      }
    },
  });

  /** The speed to run at: never 0, never beyond max_rpm (a warning says it was clamped). */
  const speedOf = (rpm: number): number => {
    requireFinite(rpm, "rpm");
    if (Math.abs(rpm) < 0.1) throw new SvcError(Code.InvalidArgument, "cannot move the motor at an rpm of nearly 0");
    if (Math.abs(rpm) > maxRpm) {
      logger.warn(`rpm ${rpm} is beyond max_rpm ${maxRpm}; running at ${maxRpm}`);
      return rpm > 0 ? maxRpm : -maxRpm;
    }
    return rpm;
  };

  const goBy = (rpm: number, distance: number): Promise<void> => {
    const speed = Math.abs(speedOf(rpm));
    requireFinite(distance, "revolutions");
    if (distance === 0) {
      apply(0);
      motion.halt();
      return Promise.resolve();
    }
    // Pins first: if they cannot be driven, the motion model stays as it was.
    apply(((distance > 0 ? 1 : -1) * speed) / maxRpm);
    return motion.run(speed, distance);
  };

  return {
    setPower(requested) {
      requireFinite(requested, "power");
      const p = Math.max(-1, Math.min(1, requested));
      apply(p);
      void motion.run(p * maxRpm);
    },
    goFor(rpm, revolutions) {
      requireFinite(revolutions, "revolutions");
      if (revolutions === 0) {
        const speed = speedOf(rpm);
        apply(speed / maxRpm);
        void motion.run(speed);
        return Promise.resolve();
      }
      return goBy(rpm, rpm < 0 ? -revolutions : revolutions);
    },
    goBy,
    setRPM(rpm) {
      requireFinite(rpm, "rpm");
      if (rpm === 0) {
        apply(0);
        motion.halt();
        return;
      }
      const speed = speedOf(rpm);
      apply(speed / maxRpm);
      void motion.run(speed);
    },
    stop() {
      // Halt first: a stop whose pins fail must still not leave a move timer running.
      motion.halt();
      apply(0);
    },
    isPowered() {
      // A finished move has stopped even if its timer has not fired yet.
      const p = motion.isMoving() ? power : 0;
      return { isOn: p !== 0, powerPct: p };
    },
    isMoving: motion.isMoving,
    turned: motion.turned,
  };
}

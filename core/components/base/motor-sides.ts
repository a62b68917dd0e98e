// The motors of a differential drive, side by side: a command goes to every motor at once, and
// the base answers when all have. When one motor fails, every motor is stopped at once (a side
// left running would turn the base in circles) and the answer names each motor that failed.
import { Code, SvcError } from "../../errors/index.js";
import type { Motor } from "../apis/motor.js";
import type { Sides } from "./wheel-speeds.js";

export interface SideMotor {
  /** The name the configuration gave. */
  name: string;
  side: "left" | "right";
  motor: Motor;
}

export interface MotorSides {
  /** Runs the side's command on each of its motors together; resolves when every one has. */
  run(command: Sides<(motor: Motor) => Promise<void>>): Promise<void>;
  /** Stops every motor, even when one cannot; fails naming those that could not. */
  stop(): Promise<void>;
  isMoving(): Promise<boolean>;
}

interface Failure {
  name: string;
  error: unknown;
}

function named(failures: readonly Failure[]): SvcError {
  const errors = failures.map(({ name, error }) => ({ name, error: SvcError.from(error) }));
  const message = errors.map(({ name, error }) => `motor ${JSON.stringify(name)}: ${error.message}`).join("; ");
  return new SvcError(errors[0]?.error.code ?? Code.Unknown, message, errors[0]?.error);
}

export function createMotorSides(motors: readonly SideMotor[]): MotorSides {
  /** Stops every motor; the failures, none when all stopped. */
  const stopEach = async (): Promise<Failure[]> => {
    const failures: Failure[] = [];
    await Promise.all(motors.map(({ name, motor }) => motor.stop().catch((error: unknown) => void failures.push({ name, error }))));
    return failures;
  };

  return {
    async run(command) {
      const failures: Failure[] = [];
      let stopping: Promise<void> | undefined;
      await Promise.all(
        motors.map(({ name, side, motor }) =>
          command[side](motor).catch((error: unknown) => {
            failures.push({ name, error });
            // The other motors' moves end with this stop, so the wait below ends too.
            stopping ??= stopEach().then((more) => void failures.push(...more));
          }),
        ),
      );
      await stopping;
      if (failures.length > 0) throw named(failures);
    },
    async stop() {
      const failures = await stopEach();
      if (failures.length > 0) throw named(failures);
    },
    async isMoving() {
      const moving = await Promise.all(motors.map(({ motor }) => motor.isMoving()));
      return moving.includes(true);
    },
  };
}

// The Motor API on top of a MotorControl, shared by the built-in motor models: they differ only
// in what drives the motor and whether it can report a position.
import type { ResourceName } from "../../resource/index.js";
import { Code, SvcError } from "../../errors/index.js";
import { requireFinite } from "../require-finite.js";
import type { Motor } from "../apis/motor.js";
import type { MotorControl } from "./motor-control.js";

export interface MotorResourceParts {
  name: ResourceName;
  control: MotorControl;
  /** How the motor knows where it is; absent when it cannot (then GoTo is unsupported). */
  position?: {
    read(): number;
    resetZero(offset: number): void;
  };
  /** Releases what the model holds, after the motor has been stopped. */
  release(): void;
}

export function createMotorResource(parts: MotorResourceParts): Motor {
  const { name, control, position } = parts;
  let closed = false;
  const unsupported = (what: string) =>
    new SvcError(Code.Unimplemented, `motor ${name.name} cannot report its position, so it cannot ${what}`);

  return {
    name,
    async setPower(power) {
      control.setPower(power);
    },
    async goFor(rpm, revolutions) {
      await control.goFor(rpm, revolutions);
    },
    async goTo(rpm, target) {
      if (!position) throw unsupported("go to a position");
      requireFinite(target, "position_revolutions");
      await control.goBy(rpm, target - position.read());
    },
    async setRPM(rpm) {
      control.setRPM(rpm);
    },
    async resetZeroPosition(offset) {
      if (!position) throw unsupported("reset its zero position");
      position.resetZero(requireFinite(offset, "offset"));
    },
    async getPosition() {
      return position ? position.read() : 0;
    },
    async getProperties() {
      return { positionReporting: position !== undefined };
    },
    async stop() {
      control.stop();
    },
    async isPowered() {
      return control.isPowered();
    },
    async isMoving() {
      return control.isMoving();
    },
    async doCommand(command) {
      return command;
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        control.stop();
      } finally {
        parts.release();
      }
    },
  };
}

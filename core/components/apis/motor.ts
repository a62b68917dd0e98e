// The motor API. Positions are in revolutions from the zero position, speeds in revolutions per
// minute, power from -1 (full reverse) to 1 (full forward).
import type { Actuator } from "./actuator.js";
import type { Commandable, Extra } from "./commandable.js";

export interface MotorProperties {
  positionReporting: boolean;
}

export interface MotorPowerState {
  isOn: boolean;
  /** Power of the running command, -1 to 1; 0 once stopped or arrived. */
  powerPct: number;
}

export interface Motor extends Commandable, Actuator {
  setPower(power: number, extra?: Extra): Promise<void>;
  /** Turns `revolutions` at `rpm` (the signs multiply into the direction) and resolves when done; 0 revolutions runs until stopped. */
  goFor(rpm: number, revolutions: number, extra?: Extra): Promise<void>;
  /** Turns to `positionRevolutions` at `|rpm|` and resolves when there. */
  goTo(rpm: number, positionRevolutions: number, extra?: Extra): Promise<void>;
  /** Runs at `rpm` until told otherwise. */
  setRPM(rpm: number, extra?: Extra): Promise<void>;
  /** Makes the current position read `offset`. */
  resetZeroPosition(offset: number, extra?: Extra): Promise<void>;
  getPosition(extra?: Extra): Promise<number>;
  getProperties(extra?: Extra): Promise<MotorProperties>;
  isPowered(extra?: Extra): Promise<MotorPowerState>;
}

// The power sensor API: voltage, current and power.
import type { ReadingsSource } from "../../resource/index.js";
import type { Commandable, Extra } from "./commandable.js";

export interface PowerSensor extends Commandable, ReadingsSource {
  getVoltage(extra?: Extra): Promise<{ volts: number; isAc: boolean }>;
  getCurrent(extra?: Extra): Promise<{ amperes: number; isAc: boolean }>;
  /** Watts. */
  getPower(extra?: Extra): Promise<number>;
}

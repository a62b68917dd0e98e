// The board API: GPIO levels, PWM duty and frequency, analog readers and digital interrupts by
// name, and the board's IO for the components wired to it.
import type { IOProvider } from "../../../hal/io.js";
import type { Resource } from "../../resource/index.js";
import type { Commandable, Extra } from "./commandable.js";

/** An analog reading: the raw value and the voltage range it spans. */
export interface AnalogValue {
  value: number;
  minRange: number;
  maxRange: number;
  /** Volts per step of `value`. */
  stepSize: number;
}

export interface Board extends Commandable {
  setGPIO(pin: string, high: boolean, extra?: Extra): Promise<void>;
  getGPIO(pin: string, extra?: Extra): Promise<boolean>;
  /** Duty cycle of the pin's PWM, 0 to 1 (the wire calls it `duty_cycle_pct`). */
  pwm(pin: string, extra?: Extra): Promise<number>;
  setPWM(pin: string, dutyCycle: number, extra?: Extra): Promise<void>;
  pwmFrequency(pin: string, extra?: Extra): Promise<number>;
  /** 0 chooses the board's default frequency. */
  setPWMFrequency(pin: string, hz: number, extra?: Extra): Promise<void>;
  readAnalogReader(name: string, extra?: Extra): Promise<AnalogValue>;
  writeAnalog(pin: string, value: number, extra?: Extra): Promise<void>;
  /** The count of the named interrupt's edges so far. */
  getDigitalInterruptValue(name: string, extra?: Extra): Promise<number>;
  /**
   * IO on this board's pins for components wired to it (a motor's PWM and direction pins).
   * A pin opened through it is busy for the board's own GPIO and PWM calls until closed.
   */
  boardIO(): IOProvider;
}

export function isBoard(resource: Resource | undefined): resource is Board {
  return resource !== undefined && typeof (resource as Partial<Board>).boardIO === "function";
}

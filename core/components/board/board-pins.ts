// The pins a board drives itself through SetGPIO, SetPWM and SetPWMFrequency. Each pin holds one
// open IO handle of the kind last asked for: a GPIO call on a PWM pin closes the PWM first, as
// on hardware, where a pin is either a plain output or a PWM channel.
import { IOError, requireIO, type Digital, type IOProvider, type PWM } from "../../../hal/io.js";
import { closeAll } from "../close-all.js";
import { Code, SvcError } from "../../errors/index.js";
import { requireFinite } from "../require-finite.js";

export const DEFAULT_PWM_HZ = 800;

type OwnPin = { kind: "gpio"; io: Digital; high: boolean } | { kind: "pwm"; io: PWM; duty: number };

export interface BoardPins {
  setLevel(pin: string, high: boolean): void;
  /** The level the board drives the pin to (a PWM pin reads high while its duty is above 0). */
  driven(pin: string): boolean | undefined;
  setDuty(pin: string, duty: number): void;
  duty(pin: string): number;
  setFrequency(pin: string, hz: number): void;
  frequency(pin: string): number;
  /** What the board uses the pin for, or undefined. */
  use(pin: string): string | undefined;
  close(): void;
}

export interface BoardPinsOptions {
  io: IOProvider;
  boardName: string;
  /** Why the board may not touch a pin right now (a component holds it), or undefined. */
  blocked(pin: string): string | undefined;
}

export function createBoardPins(options: BoardPinsOptions): BoardPins {
  const { io, boardName, blocked } = options;
  const own = new Map<string, OwnPin>();
  const frequencies = new Map<string, number>();

  const check = (pin: string) => {
    const reason = blocked(pin);
    if (reason !== undefined) throw new IOError("busy", `pin ${pin} of board ${boardName} is busy: ${reason}`);
  };
  const release = (pin: string) => {
    const held = own.get(pin);
    if (!held) return;
    own.delete(pin);
    held.io.close();
  };
  const openPwm = (pin: string, duty: number): void => {
    const pwm = new (requireIO(io, "PWM"))({ pin, hz: frequencies.get(pin) ?? DEFAULT_PWM_HZ });
    try {
      pwm.write(Math.round(duty * (2 ** pwm.resolution - 1)));
    } catch (thrown) {
      pwm.close();
      throw thrown;
    }
    own.set(pin, { kind: "pwm", io: pwm, duty });
  };

  return {
    setLevel(pin, high) {
      check(pin);
      let held = own.get(pin);
      if (held?.kind === "pwm") {
        release(pin);
        held = undefined;
      }
      if (!held) {
        const digital = new (requireIO(io, "Digital"))({ pin, mode: "output" });
        held = { kind: "gpio", io: digital, high };
        own.set(pin, held);
      }
      held.io.write(high ? 1 : 0);
      held.high = high;
    },
    driven(pin) {
      const held = own.get(pin);
      if (!held) return undefined;
      return held.kind === "gpio" ? held.high : held.duty > 0;
    },
    setDuty(pin, duty) {
      requireFinite(duty, "duty_cycle_pct");
      if (duty < 0 || duty > 1) throw new SvcError(Code.InvalidArgument, `duty cycle must be from 0 to 1, got ${duty}`);
      check(pin);
      const held = own.get(pin);
      if (held?.kind === "pwm") {
        held.io.write(Math.round(duty * (2 ** held.io.resolution - 1)));
        held.duty = duty;
        return;
      }
      release(pin);
      openPwm(pin, duty);
    },
    duty(pin) {
      const held = own.get(pin);
      return held?.kind === "pwm" ? held.duty : 0;
    },
    setFrequency(pin, hz) {
      requireFinite(hz, "frequency_hz");
      if (hz < 0) throw new SvcError(Code.InvalidArgument, `PWM frequency must not be negative, got ${hz}`);
      check(pin);
      const wanted = hz === 0 ? DEFAULT_PWM_HZ : hz;
      frequencies.set(pin, wanted);
      const held = own.get(pin);
      // IO configuration is fixed once constructed: a new frequency means a new PWM handle.
      if (held?.kind === "pwm" && held.io.hz !== wanted) {
        release(pin);
        openPwm(pin, held.duty);
      }
    },
    frequency(pin) {
      const held = own.get(pin);
      if (held?.kind === "pwm") return held.io.hz;
      return frequencies.get(pin) ?? 0;
    },
    use(pin) {
      const held = own.get(pin);
      if (!held) return undefined;
      return held.kind === "gpio" ? "SetGPIO" : "SetPWM";
    },
    close() {
      closeAll(Array.from(own.keys()), release);
    },
  };
}

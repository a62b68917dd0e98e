// PWM checks on one pin: a frequency and duty set, read back where the backend can, a second
// frequency through a new handle (IO configuration is fixed once constructed), and nothing left
// running after close.
import { requireIO } from "../../hal/io.js";
import { SkipCheck, type Check, type ConformanceTarget } from "./check.js";

const near = (actual: number, expected: number, tolerance: number) => Math.abs(actual - expected) <= tolerance * Math.max(1, Math.abs(expected));

export function pwmChecks(target: ConformanceTarget, pin: string): Check[] {
  const PWM = () => requireIO(target.io, "PWM");
  const setting = (hz: number, duty: number): Check => ({
    capability: `pwm ${pin} ${hz} Hz ${Math.round(duty * 100)}%`,
    run: async () => {
      const pwm = new (PWM())({ pin, hz });
      let seen: { hz: number; duty: number } | undefined;
      try {
        pwm.write(Math.round(duty * (2 ** pwm.resolution - 1)));
        seen = target.readPwm?.(pin);
      } finally {
        pwm.close();
      }
      if (!target.readPwm) throw new SkipCheck("set without error; this backend cannot read PWM back (check with a scope or an LED)");
      if (!seen) throw new Error(`nothing read back from ${pin} while the PWM was open`);
      if (!near(seen.hz, hz, 0.01)) throw new Error(`frequency read back ${seen.hz} Hz, expected ${hz} Hz`);
      if (!near(seen.duty, duty, 0.01)) throw new Error(`duty read back ${seen.duty}, expected ${duty}`);
      const after = target.readPwm(pin);
      if (after && after.enabled !== false) throw new Error(`${pin} still running after close`);
      return `read back ${seen.hz.toFixed(1)} Hz, duty ${seen.duty.toFixed(3)}`;
    },
  });
  return [setting(1000, 0.25), setting(50, 0.75)];
}

// How a motor's power reaches its pins, one entry per way of wiring a motor driver. Each opens
// its pins through the board's IO and closes whatever it opened if one of them fails.
import { requireIO, type Closable, type IOProvider, type PWM } from "../../../hal/io.js";
import { closeAll } from "../close-all.js";
import type { MotorPins } from "./motor-attributes.js";

export interface MotorOutputs {
  /** Power from -1 to 1; 0 lets the motor coast. */
  drive(power: number): void;
  close(): void;
}

interface Opener {
  output(pin: string): (level: 0 | 1) => void;
  pwm(pin: string): (fraction: number) => void;
  opened: Closable[];
}

function createOpener(io: IOProvider, hz: number): Opener {
  const opened: Closable[] = [];
  const duty = (pwm: PWM) => (fraction: number) => pwm.write(Math.round(fraction * (2 ** pwm.resolution - 1)));
  return {
    opened,
    output(pin) {
      const digital = new (requireIO(io, "Digital"))({ pin, mode: "output" });
      opened.push(digital);
      return (level) => digital.write(level);
    },
    pwm(pin) {
      const pwm = new (requireIO(io, "PWM"))({ pin, hz });
      opened.push(pwm);
      return duty(pwm);
    },
  };
}

type Wire<K extends MotorPins["wiring"]> = (open: Opener, pins: Extract<MotorPins, { wiring: K }>) => (power: number) => void;

/** The wirings by kind: each opens its pins and returns what drives them. */
export const motorWirings: { [K in MotorPins["wiring"]]: Wire<K> } = {
  // A PWM pin for speed, a direction pin high for forward.
  "pwm-dir"(open, pins) {
    const speed = open.pwm(pins.pwm);
    const dir = open.output(pins.dir);
    return (power) => {
      if (power !== 0) dir(power > 0 ? 1 : 0);
      speed(Math.abs(power));
    };
  },
  // An H-bridge: A high for forward, B high for backward, both low to coast; PWM on enable.
  "a-b-pwm"(open, pins) {
    const a = open.output(pins.a);
    const b = open.output(pins.b);
    const speed = open.pwm(pins.pwm);
    return (power) => {
      a(power > 0 ? 1 : 0);
      b(power < 0 ? 1 : 0);
      speed(Math.abs(power));
    };
  },
  // An H-bridge without an enable pin: PWM on the input of the direction of travel.
  "a-b"(open, pins) {
    const a = open.pwm(pins.a);
    const b = open.pwm(pins.b);
    return (power) => {
      a(power > 0 ? power : 0);
      b(power < 0 ? -power : 0);
    };
  },
};

function wire(open: Opener, pins: MotorPins): (power: number) => void {
  switch (pins.wiring) {
    case "pwm-dir":
      return motorWirings["pwm-dir"](open, pins);
    case "a-b-pwm":
      return motorWirings["a-b-pwm"](open, pins);
    case "a-b":
      return motorWirings["a-b"](open, pins);
  }
}

/** Opens the motor's pins, stopped. */
export function openMotorOutputs(io: IOProvider, pins: MotorPins, hz: number): MotorOutputs {
  const opener = createOpener(io, hz);
  const close = () => closeAll(opener.opened.splice(0), (handle) => handle.close());
  try {
    const drive = wire(opener, pins);
    drive(0);
    return { drive, close };
  } catch (thrown) {
    close();
    throw thrown;
  }
}

// A simulated board built from a description: named pins (some wired to each other), PWM and
// analog channels, I2C devices and serial ports. It hands out the same IO classes a real host
// does (an IOProvider), and lets tests look at and drive the other side of each wire.
import {
  IOError,
  type Analog,
  type AnalogOptions,
  type Digital,
  type DigitalOptions,
  type IOProvider,
  type PinSpecifier,
  type PWM,
  type PWMOptions,
} from "../io.js";
import { createSimPins, type SimPins } from "./pins.js";
import { createSimI2C, type SimI2CDevice } from "./i2c.js";
import { createSimSerial, type SimSerialWiring } from "./serial.js";

export interface SimBoardDescription {
  name?: string;
  /** Pin names; default "0" to "39". */
  pins?: readonly string[];
  /** Pins wired together: an output on one drives the input on the other. */
  loops?: ReadonlyArray<readonly [PinSpecifier, PinSpecifier]>;
  i2c?: readonly SimI2CDevice[];
  serial?: Readonly<Record<string, SimSerialWiring>>;
}

export interface PwmState {
  hz: number;
  resolution: number;
  value: number;
  /** value as a fraction of full scale, 0..1 */
  duty: number;
}

export interface SimBoard {
  io: IOProvider;
  pins: SimPins;
  /** The PWM output of a pin, or undefined when none is open on it. */
  pwm(pin: PinSpecifier): PwmState | undefined;
  /** What an analog input reads, as a fraction of full scale (0..1). */
  setAnalog(pin: PinSpecifier, fraction: number): void;
  i2cDevice(bus: number, address: number): Uint8Array | undefined;
  injectSerial(port: string, data: Uint8Array): void;
}

const defaultPins = Array.from({ length: 40 }, (_, i) => String(i));

export function createSimBoard(description: SimBoardDescription = {}): SimBoard {
  const name = description.name ?? "sim";
  const pins = createSimPins(description.pins ?? defaultPins, description.loops ?? []);
  const pwms = new Map<string, PwmState>();
  const analog = new Map<string, number>();
  const i2c = createSimI2C(description.i2c ?? []);
  const serial = createSimSerial(description.serial ?? {});
  let handles = 0;

  class SimDigital implements Digital {
    private readonly owner = `Digital#${++handles}`;
    private closed = false;
    private unwatch: (() => void) | undefined;
    constructor(private readonly options: DigitalOptions) {
      pins.claim(options.pin, this.owner);
      pins.setMode(options.pin, options.mode);
      const onReadable = options.onReadable;
      if (onReadable && !options.mode.startsWith("output")) {
        this.unwatch = pins.watch(options.pin, options.edge ?? "both", () => !this.closed && onReadable());
      }
    }
    read(): 0 | 1 {
      this.check();
      return pins.read(this.options.pin);
    }
    write(value: 0 | 1): void {
      this.check();
      if (!this.options.mode.startsWith("output")) throw new IOError("unsupported", `pin ${this.options.pin} is an input`);
      pins.drive(this.options.pin, value ? 1 : 0);
    }
    close(): void {
      if (this.closed) return;
      this.closed = true;
      this.unwatch?.();
      pins.release(this.options.pin, this.owner);
    }
    private check() {
      if (this.closed) throw new IOError("closed", `pin ${this.options.pin} is closed`);
    }
  }

  class SimPWM implements PWM {
    private readonly owner = `PWM#${++handles}`;
    private readonly key: string;
    private closed = false;
    readonly hz: number;
    readonly resolution: number;
    constructor(options: PWMOptions) {
      if (!(options.hz > 0)) throw new IOError("invalid", `PWM frequency must be positive, got ${options.hz}`);
      this.hz = options.hz;
      this.resolution = options.resolution ?? 10;
      this.key = String(options.pin);
      pins.claim(options.pin, this.owner);
      pwms.set(this.key, { hz: this.hz, resolution: this.resolution, value: 0, duty: 0 });
    }
    write(value: number): void {
      if (this.closed) throw new IOError("closed", `PWM on pin ${this.key} is closed`);
      const max = 2 ** this.resolution - 1;
      if (!Number.isInteger(value) || value < 0 || value > max) {
        throw new IOError("invalid", `PWM value must be a whole number from 0 to ${max}, got ${value}`);
      }
      pwms.set(this.key, { hz: this.hz, resolution: this.resolution, value, duty: value / max });
    }
    close(): void {
      if (this.closed) return;
      this.closed = true;
      pwms.delete(this.key);
      pins.release(this.key, this.owner);
    }
  }

  class SimAnalog implements Analog {
    private readonly key: string;
    private closed = false;
    readonly resolution: number;
    constructor(options: AnalogOptions) {
      this.key = String(options.pin);
      if (!pins.has(this.key)) throw new IOError("invalid", `the simulated board has no pin ${JSON.stringify(this.key)}`);
      this.resolution = options.resolution ?? 10;
    }
    read(): number {
      if (this.closed) throw new IOError("closed", `analog input ${this.key} is closed`);
      return Math.round((analog.get(this.key) ?? 0) * (2 ** this.resolution - 1));
    }
    close(): void {
      this.closed = true;
    }
  }

  return {
    io: { name, Digital: SimDigital, PWM: SimPWM, Analog: SimAnalog, I2C: i2c.I2C, SMBus: i2c.SMBus, Serial: serial.Serial },
    pins,
    pwm: (pin) => pwms.get(String(pin)),
    setAnalog: (pin, fraction) => {
      if (!pins.has(pin)) throw new IOError("invalid", `the simulated board has no pin ${JSON.stringify(String(pin))}`);
      analog.set(String(pin), Math.min(1, Math.max(0, fraction)));
    },
    i2cDevice: i2c.device,
    injectSerial: serial.inject,
  };
}

// The pin-based IO classes on Moddable hosts: Digital, PWM and Analog, each over the host's own
// class, with the pin looked up and every host error mapped to IOError.
import type {
  Analog,
  AnalogOptions,
  Digital,
  DigitalMode,
  DigitalOptions,
  Edge,
  IOError,
  IOProvider,
  PinSpecifier,
  PWM,
  PWMOptions,
} from "../io.js";
import type { ModdableClass, ModdableInstance } from "./moddable-types.js";

/** Our mode names as the names of the host's constants. */
export const modeConstants: Record<DigitalMode, string> = {
  input: "Input",
  "input-pull-up": "InputPullUp",
  "input-pull-down": "InputPullDown",
  output: "Output",
  "output-open-drain": "OutputOpenDrain",
};

/** What the classes need of the host's pins. */
export interface PinAccess {
  host: string;
  pin(pin: PinSpecifier): PinSpecifier;
  constant(io: ModdableClass, kind: string, constant: string): unknown;
  open(io: ModdableClass, kind: string, options: Record<string, unknown>): ModdableInstance;
  call<T>(what: string, fn: () => T): T;
  ioError(thrown: unknown, what: string): IOError;
}

function edgeOf(pins: PinAccess, io: ModdableClass, edge: Edge): number {
  const rising = Number(pins.constant(io, "Digital", "Rising"));
  const falling = Number(pins.constant(io, "Digital", "Falling"));
  return edge === "rising" ? rising : edge === "falling" ? falling : rising | falling;
}

export function digitalClass(pins: PinAccess, io: ModdableClass): NonNullable<IOProvider["Digital"]> {
  const { host, pin, constant, open, call, ioError } = pins;
  return class McuDigital implements Digital {
    private readonly native: ModdableInstance;
    private readonly what: string;
    constructor(options: DigitalOptions) {
      this.what = `${host} pin ${options.pin}`;
      const input = !options.mode.startsWith("output");
      const onReadable = options.onReadable;
      const settings: Record<string, unknown> = { pin: pin(options.pin), mode: constant(io, "Digital", modeConstants[options.mode]) };
      if (input && onReadable) {
        settings.edge = edgeOf(pins, io, options.edge ?? "both");
        settings.onReadable = () => onReadable();
      }
      const onError = options.onError;
      if (onError) settings.onError = (e: unknown) => onError(ioError(e, this.what));
      this.native = open(io, "Digital", settings);
    }
    read(): 0 | 1 {
      return call(this.what, () => (this.native.read() ? 1 : 0));
    }
    write(value: 0 | 1): void {
      call(this.what, () => this.native.write(value ? 1 : 0));
    }
    close(): void {
      this.native.close();
    }
  };
}

export function pwmClass(pins: PinAccess, io: ModdableClass): NonNullable<IOProvider["PWM"]> {
  const { host, pin, open, call } = pins;
  return class McuPWM implements PWM {
    private readonly native: ModdableInstance;
    private readonly what: string;
    readonly hz: number;
    readonly resolution: number;
    constructor(options: PWMOptions) {
      this.what = `${host} PWM on pin ${options.pin}`;
      const settings: Record<string, unknown> = { pin: pin(options.pin), hz: options.hz };
      if (options.resolution !== undefined) settings.resolution = options.resolution;
      this.native = open(io, "PWM", settings);
      this.hz = this.native.hz ?? options.hz;
      this.resolution = this.native.resolution ?? options.resolution ?? 10;
    }
    write(value: number): void {
      call(this.what, () => this.native.write(value));
    }
    close(): void {
      this.native.close();
    }
  };
}

export function analogClass(pins: PinAccess, io: ModdableClass): NonNullable<IOProvider["Analog"]> {
  const { host, pin, open, call } = pins;
  return class McuAnalog implements Analog {
    private readonly native: ModdableInstance;
    private readonly what: string;
    readonly resolution: number;
    constructor(options: AnalogOptions) {
      this.what = `${host} analog input on pin ${options.pin}`;
      const settings: Record<string, unknown> = { pin: pin(options.pin) };
      if (options.resolution !== undefined) settings.resolution = options.resolution;
      this.native = open(io, "Analog", settings);
      this.resolution = this.native.resolution ?? options.resolution ?? 10;
    }
    read(): number {
      return call(this.what, () => Number(this.native.read()));
    }
    close(): void {
      this.native.close();
    }
  };
}

// Pin-based IO on Moddable hosts: Digital, PWM and Analog, plus the pin lookup and error
// mapping the bus kinds share. A pin given by a header name is looked up in the host's pin
// table; a numeric string is the pin of that number.
import {
  IOError,
  type Analog,
  type AnalogOptions,
  type Digital,
  type DigitalMode,
  type DigitalOptions,
  type Edge,
  type IOProvider,
  type PinSpecifier,
  type PWM,
  type PWMOptions,
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

export interface ModdablePins {
  /** The host's pin for a specifier. */
  pin(pin: PinSpecifier): PinSpecifier;
  /** A host class's static constant, or an "unsupported" IOError naming it. */
  constant(io: ModdableClass, kind: string, constant: string): unknown;
  /** Constructs a host object, mapping a host error to IOError. */
  open(io: ModdableClass, kind: string, options: Record<string, unknown>): ModdableInstance;
  /** Runs a host call, mapping a host error to IOError. */
  call<T>(what: string, fn: () => T): T;
  /** The pin-based classes for the kinds the host has. */
  classes(io: { Digital?: ModdableClass; PWM?: ModdableClass; Analog?: ModdableClass }): Pick<IOProvider, "Digital" | "PWM" | "Analog">;
}

function ioError(thrown: unknown, what: string): IOError {
  if (thrown instanceof IOError) return thrown;
  const message = thrown instanceof Error ? thrown.message : String(thrown);
  // Moddable reports a pin or port held by another object as "in use".
  const code = /in use|busy/i.test(message) ? "busy" : thrown instanceof RangeError || thrown instanceof TypeError ? "invalid" : "io";
  return new IOError(code, `${what}: ${message}`);
}

export function createModdablePins(host: string, names: Readonly<Record<string, PinSpecifier>>): ModdablePins {
  function pin(p: PinSpecifier): PinSpecifier {
    if (typeof p === "number") return p;
    if (Object.prototype.hasOwnProperty.call(names, p)) return names[p]!;
    if (/^\d+$/.test(p)) return Number(p);
    throw new IOError("invalid", `${host} has no pin named ${JSON.stringify(p)}`);
  }

  function constant(io: ModdableClass, kind: string, name: string): unknown {
    const value = io[name];
    if (value === undefined) throw new IOError("unsupported", `${host} ${kind} has no ${name}`);
    return value;
  }

  function open(io: ModdableClass, kind: string, options: Record<string, unknown>): ModdableInstance {
    try {
      return new io(options);
    } catch (thrown) {
      throw ioError(thrown, `${host} ${kind}`);
    }
  }

  function call<T>(what: string, fn: () => T): T {
    try {
      return fn();
    } catch (thrown) {
      throw ioError(thrown, what);
    }
  }

  function edgeOf(io: ModdableClass, edge: Edge): number {
    const rising = Number(constant(io, "Digital", "Rising"));
    const falling = Number(constant(io, "Digital", "Falling"));
    return edge === "rising" ? rising : edge === "falling" ? falling : rising | falling;
  }

  function digitalClass(io: ModdableClass): NonNullable<IOProvider["Digital"]> {
    return class McuDigital implements Digital {
      private readonly native: ModdableInstance;
      private readonly what: string;
      constructor(options: DigitalOptions) {
        this.what = `${host} pin ${options.pin}`;
        const input = !options.mode.startsWith("output");
        const onReadable = options.onReadable;
        const settings: Record<string, unknown> = { pin: pin(options.pin), mode: constant(io, "Digital", modeConstants[options.mode]) };
        if (input && onReadable) {
          settings.edge = edgeOf(io, options.edge ?? "both");
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

  function pwmClass(io: ModdableClass): NonNullable<IOProvider["PWM"]> {
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

  function analogClass(io: ModdableClass): NonNullable<IOProvider["Analog"]> {
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

  return {
    pin,
    constant,
    open,
    call,
    classes(io) {
      return {
        ...(io.Digital ? { Digital: digitalClass(io.Digital) } : {}),
        ...(io.PWM ? { PWM: pwmClass(io.PWM) } : {}),
        ...(io.Analog ? { Analog: analogClass(io.Analog) } : {}),
      };
    },
  };
}

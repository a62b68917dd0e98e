// Pin-based IO on Moddable hosts: the pin lookup and error mapping every kind shares, and the
// Digital, PWM and Analog classes (moddable-pin-classes.ts) built on them. A pin given by a header name is looked up in the host's pin
// table; a numeric string is the pin of that number.
import { IOError, type IOProvider, type PinSpecifier } from "../io.js";
import { analogClass, digitalClass, pwmClass, type PinAccess } from "./moddable-pin-classes.js";
import type { ModdableClass, ModdableInstance } from "./moddable-types.js";

export { modeConstants } from "./moddable-pin-classes.js";

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

  const access: PinAccess = { host, pin, constant, open, call, ioError };
  return {
    pin,
    constant,
    open,
    call,
    classes(io) {
      return {
        ...(io.Digital ? { Digital: digitalClass(access, io.Digital) } : {}),
        ...(io.PWM ? { PWM: pwmClass(access, io.PWM) } : {}),
        ...(io.Analog ? { Analog: analogClass(access, io.Analog) } : {}),
      };
    },
  };
}

// The Linux host: an IOProvider for one board definition, built from the backends (GPIO on the
// character device, I2C and SMBus on /dev/i2c-N, serial ports, sysfs PWM). The native
// libraries are loaded here, when a host is opened; a kind whose library is missing is still
// offered, and opening it says what to install. Linux boards have no analog inputs of their
// own (boards read analog through an I2C converter), so Analog is absent.
import { IOError, type IOProvider, type PinSpecifier } from "../io.js";
import { lineOfPin, type BoardDefinition } from "./board-definitions.js";
import { createLinuxGpio } from "./gpio.js";
import { createLinuxI2CClass } from "./i2c.js";
import { loadNativeLibraries, requireLibrary, type NativeLibraries } from "./native.js";
import { createSysfsPwm, type PwmReading } from "./pwm.js";
import { createLinuxSerialClass } from "./serial.js";
import { createLinuxSMBusClass } from "./smbus.js";

export const DEFAULT_EDGE_POLL_MS = 1;

export interface LinuxIOOptions {
  /** What the board's pin names mean; a board with no pins (serial and I2C only) when omitted. */
  definition?: BoardDefinition;
  /** The native libraries, when already loaded (or stood in for); loaded here otherwise. */
  libraries?: NativeLibraries;
  /** `/sys/class/pwm` */
  pwmRoot?: string;
  /** `/dev`, where GPIO chips are looked for. */
  devRoot?: string;
  edgePollMs?: number;
  /** The name the kernel shows as the holder of GPIO lines; `svc`. */
  consumer?: string;
}

export interface LinuxHost {
  readonly io: IOProvider;
  readonly definition: BoardDefinition;
  /** A pin's hardware PWM as sysfs reports it, for checks; undefined when its channel is not exported. */
  readPwm(pin: PinSpecifier): PwmReading | undefined;
  /** The libraries that could not be loaded, with what to install. */
  readonly missing: NativeLibraries["missing"];
}

/** A board with no pins of its own: serial ports and I2C buses only. */
export function devicesOnlyDefinition(): BoardDefinition {
  return { name: "this Linux machine", gpioChips: [], pins: {}, pwm: [], i2cBus: 1, pinHelp: "no board definition names its pins" };
}

/** A class whose every construction fails with the same reason (a library that is missing). */
function unavailable<T>(message: string): T {
  return class {
    constructor() {
      throw new IOError("unsupported", message);
    }
  } as unknown as T;
}

export async function openLinuxIO(options: LinuxIOOptions = {}): Promise<LinuxHost> {
  const definition = options.definition ?? devicesOnlyDefinition();
  const libraries = options.libraries ?? (await loadNativeLibraries());
  const pwm = createSysfsPwm({
    root: options.pwmRoot ?? "/sys/class/pwm",
    boardName: definition.name,
    blocks: definition.pwm,
    lineOf: (pin) => lineOfPin(definition, pin),
  });
  const missing = (kind: "gpiod" | "i2c" | "serial") => {
    try {
      requireLibrary(libraries, kind);
      return undefined;
    } catch (thrown) {
      return (thrown as IOError).message;
    }
  };
  const io: IOProvider = {
    name: `${definition.name} (Linux)`,
    Digital: libraries.gpiod
      ? createLinuxGpio({
          gpiod: libraries.gpiod,
          definition,
          devRoot: options.devRoot ?? "/dev",
          edgePollMs: options.edgePollMs ?? DEFAULT_EDGE_POLL_MS,
          consumer: options.consumer ?? "svc",
        }).Digital
      : unavailable(missing("gpiod")!),
    I2C: libraries.i2c ? createLinuxI2CClass({ i2c: libraries.i2c, defaultBus: definition.i2cBus }) : unavailable(missing("i2c")!),
    SMBus: libraries.i2c ? createLinuxSMBusClass(libraries.i2c, definition.i2cBus) : unavailable(missing("i2c")!),
    Serial: libraries.serial ? createLinuxSerialClass(libraries.serial) : unavailable(missing("serial")!),
    PWM: pwm.PWM,
  };
  return { io, definition, readPwm: pwm.readBack, missing: libraries.missing };
}

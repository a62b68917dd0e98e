// The IO provider of a microcontroller running Moddable's XS: a thin pass-through to the
// ECMA-419 classes the firmware puts on `device.io` (Digital, DigitalBank, PWM, Analog, I2C,
// SMBus, Serial). Our contract is ECMA-419's shape, so this only translates what differs: mode
// and edge names to the host's constants, header pin names to the host's pin numbers, buffers
// to Uint8Array, and host errors to IOError. Nothing here imports `embedded:*`: the classes are
// handed in, so the host bundle builds and the tests can hand in stand-ins.
import type { IOProvider, PinSpecifier } from "../io.js";
import { createModdableBus } from "./moddable-bus.js";
import { createModdablePins } from "./moddable-pins.js";
import type { ModdableClass } from "./moddable-types.js";

/** `device.io` as a Moddable host provides it; kinds the host lacks are absent. */
export interface ModdableIOClasses {
  Digital?: ModdableClass;
  DigitalBank?: ModdableClass;
  PWM?: ModdableClass;
  Analog?: ModdableClass;
  I2C?: ModdableClass;
  SMBus?: ModdableClass;
  Serial?: ModdableClass;
}

export interface ModdableIOOptions {
  /** The provider's name in errors. Default "mcu". */
  name?: string;
  /** Header names for pins (`device.pin` on Moddable hosts), e.g. { led: 2 }. */
  pins?: Readonly<Record<string, PinSpecifier>>;
}

export function createModdableIO(io: ModdableIOClasses, options: ModdableIOOptions = {}): IOProvider {
  const name = options.name ?? "mcu";
  const pins = createModdablePins(name, options.pins ?? {});
  return { name, ...pins.classes(io), ...createModdableBus(io, pins) };
}

// The optional native libraries the Linux backends stand on, loaded with a dynamic import when a
// host is opened (never at import time), so a machine without them still installs and runs
// everything else. A library that fails to load becomes a clear "what to install" message on
// the IO kinds that need it. Only the few calls the backends make are typed here.
import { IOError } from "../io.js";

export interface GpiodChip {
  readonly name: string;
  readonly label: string;
  readonly numberOfLines: number;
}
export interface GpiodLine {
  readonly consumer: string;
  getValue(): number;
  setValue(value: number): void;
  requestInputModeFlags(consumer: string, flags: number): void;
  requestOutputModeFlags(consumer: string, flags: number, defaultValue?: number): void;
  release(): void;
}
export interface GpiodLibrary {
  Chip: new (identifier: string) => GpiodChip;
  Line: new (chip: GpiodChip, offset: number) => GpiodLine;
  getChipNames(): string[];
}

export interface I2cFuncs {
  i2c: boolean;
  smbusReadByte: boolean;
  smbusWriteByte: boolean;
  smbusReadWord: boolean;
  smbusWriteWord: boolean;
  smbusReadI2cBlock: boolean;
  smbusWriteI2cBlock: boolean;
  smbusSendByte: boolean;
  smbusReceiveByte: boolean;
}
export interface I2cBusHandle {
  i2cFuncsSync(): I2cFuncs;
  readByteSync(address: number, command: number): number;
  readWordSync(address: number, command: number): number;
  readI2cBlockSync(address: number, command: number, length: number, buffer: Uint8Array): number;
  writeByteSync(address: number, command: number, byte: number): void;
  writeWordSync(address: number, command: number, word: number): void;
  writeI2cBlockSync(address: number, command: number, length: number, buffer: Uint8Array): number;
  sendByteSync(address: number, byte: number): void;
  receiveByteSync(address: number): number;
  i2cReadSync(address: number, length: number, buffer: Uint8Array): number;
  i2cWriteSync(address: number, length: number, buffer: Uint8Array): number;
  closeSync(): void;
}
export interface I2cBusLibrary {
  openSync(bus: number, options?: { forceAccess?: boolean }): I2cBusHandle;
}

export interface SerialPortHandle {
  readonly isOpen: boolean;
  open(callback: (error: Error | null) => void): void;
  write(data: Uint8Array, callback?: (error: Error | null | undefined) => void): boolean;
  drain(callback: (error: Error | null) => void): void;
  close(callback?: (error: Error | null) => void): void;
  on(event: "data", listener: (chunk: Uint8Array) => void): unknown;
  on(event: "error" | "close", listener: (error?: Error | null) => void): unknown;
  removeAllListeners(): unknown;
}
export interface SerialPortLibrary {
  SerialPort: new (options: { path: string; baudRate: number; autoOpen: boolean }) => SerialPortHandle;
}

export interface NativeLibraries {
  gpiod?: GpiodLibrary;
  i2c?: I2cBusLibrary;
  serial?: SerialPortLibrary;
  /** Why a library is missing, as a message saying what to install. */
  missing: { gpiod?: string; i2c?: string; serial?: string };
}

export const INSTALL_HINTS = {
  gpiod: "GPIO needs node-libgpiod, built against Debian libgpiod-dev: apt install libgpiod-dev && node tools/native-addons.mjs build",
  i2c: "I2C needs i2c-bus, a native addon: apt install build-essential && node tools/native-addons.mjs build",
  serial: "Serial needs serialport's addon: apt install build-essential && node tools/native-addons.mjs build",
} as const;

type Which = keyof typeof INSTALL_HINTS;

/** CommonJS modules arrive as `default` through import(); ES modules as they are. */
function moduleOf<T>(imported: unknown): T {
  const m = imported as { default?: unknown };
  return (m.default !== undefined && typeof m.default === "object" ? m.default : imported) as T;
}

// Literal specifiers, so bundles keep them as imports of the externals; typed as plain strings so
// neither the type check nor the build needs an optional addon to be installed.
const importers: Record<Which, () => Promise<unknown>> = {
  gpiod: () => import("node-libgpiod" as string),
  i2c: () => import("i2c-bus" as string),
  serial: () => import("serialport" as string),
};

/** Loads the libraries asked for; a failure is recorded, never thrown. */
export async function loadNativeLibraries(which: readonly Which[] = ["gpiod", "i2c", "serial"]): Promise<NativeLibraries> {
  const out: NativeLibraries = { missing: {} };
  await Promise.all(
    which.map(async (kind) => {
      try {
        const lib = moduleOf<Record<string, unknown>>(await importers[kind]());
        if (kind === "gpiod") out.gpiod = lib as unknown as GpiodLibrary;
        else if (kind === "i2c") out.i2c = lib as unknown as I2cBusLibrary;
        else out.serial = lib as unknown as SerialPortLibrary;
      } catch (thrown) {
        out.missing[kind] = `${INSTALL_HINTS[kind]} (loading it failed: ${(thrown as Error).message.split("\n")[0]})`;
      }
    }),
  );
  return out;
}

/** The library, or the "unsupported" error saying what to install. */
export function requireLibrary<K extends Which>(libraries: NativeLibraries, kind: K): NonNullable<NativeLibraries[K]> {
  const lib = libraries[kind];
  if (!lib) throw new IOError("unsupported", libraries.missing[kind] ?? INSTALL_HINTS[kind]);
  return lib as NonNullable<NativeLibraries[K]>;
}

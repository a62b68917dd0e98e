// The one IO contract every driver is written against, shaped after ECMA-419 (`embedded:io`,
// as Moddable implements it on microcontrollers) so the MCU backend is a thin pass-through and
// the same driver runs on simulated hardware, a Linux board and a microcontroller.
//
// The ECMA-419 rules kept here: one options object to construct (callbacks inside it),
// configuration fixed once constructed, `read()` returns undefined when there is nothing,
// no callback fires after `close()` begins, and a failed construction leaves nothing open.
// Platform-neutral: runs in XS.

/** Why an IO operation failed; drivers branch on `code`, people read `message`. */
export type IOErrorCode = "busy" | "unsupported" | "io" | "closed" | "invalid";

export class IOError extends Error {
  override name = "IOError";
  constructor(readonly code: IOErrorCode, message: string) {
    super(message);
  }
}

/** A pin as a board names it: a number on a bare chip, a header name ("12", "GPIO18") on a board. */
export type PinSpecifier = number | string;

export interface Closable {
  close(): void;
}

// Digital -----------------------------------------------------------------------------------

export type DigitalMode = "input" | "input-pull-up" | "input-pull-down" | "output" | "output-open-drain";

/** Edges that wake `onReadable`: rising (0 -> 1), falling (1 -> 0) or both. */
export type Edge = "rising" | "falling" | "both";

export interface DigitalOptions {
  pin: PinSpecifier;
  mode: DigitalMode;
  /** Inputs only: which edges call `onReadable`. */
  edge?: Edge;
  /** Called after a watched edge, with no arguments (read the value with `read()`). */
  onReadable?: () => void;
  onError?: (error: IOError) => void;
}

export interface Digital extends Closable {
  read(): 0 | 1;
  write(value: 0 | 1): void;
}

export interface DigitalBankOptions {
  /** Bit mask of the pins in the bank (bit n = pin n). */
  pins: number;
  mode: DigitalMode;
  rises?: number;
  falls?: number;
  onReadable?: (triggered: number) => void;
  onError?: (error: IOError) => void;
}

export interface DigitalBank extends Closable {
  /** The bank's pins as a bit mask. */
  read(): number;
  write(value: number): void;
}

// I2C and SMBus -----------------------------------------------------------------------------

export interface I2COptions {
  /** The bus: a number on Linux (`/dev/i2c-N`), pins on a microcontroller. */
  bus?: number;
  data?: PinSpecifier;
  clock?: PinSpecifier;
  /** Bus speed in hertz (100 kHz standard, 400 kHz fast). */
  hz: number;
  /** 7-bit device address. */
  address: number;
  onError?: (error: IOError) => void;
}

export interface I2C extends Closable {
  read(count: number, stop?: boolean): Uint8Array;
  write(data: Uint8Array, stop?: boolean): void;
  /** A write followed by a read with a repeated start, as most register reads need. */
  writeRead(data: Uint8Array, count: number): Uint8Array;
}

export interface SMBus extends I2C {
  readUint8(register: number): number;
  readUint16(register: number, bigEndian?: boolean): number;
  readBuffer(register: number, count: number): Uint8Array;
  writeUint8(register: number, value: number): void;
  writeUint16(register: number, value: number, bigEndian?: boolean): void;
  writeBuffer(register: number, data: Uint8Array): void;
}

// Serial ------------------------------------------------------------------------------------

export interface SerialOptions {
  /** A device path on Linux (`/dev/ttyUSB0`), a port number on a microcontroller. */
  port: string | number;
  baud: number;
  /** Called with the number of bytes ready to read. */
  onReadable?: (count: number) => void;
  /** Called with the number of bytes that can be written without blocking. */
  onWritable?: (count: number) => void;
  onError?: (error: IOError) => void;
}

export interface Serial extends Closable {
  /** Up to `count` bytes (all available when omitted), or undefined when nothing is waiting. */
  read(count?: number): Uint8Array | undefined;
  write(data: Uint8Array): void;
}

// PWM and Analog ----------------------------------------------------------------------------

export interface PWMOptions {
  pin: PinSpecifier;
  hz: number;
  /** Bits of duty resolution; the backend may choose when omitted. */
  resolution?: number;
  onError?: (error: IOError) => void;
}

export interface PWM extends Closable {
  readonly hz: number;
  readonly resolution: number;
  /** Duty as a whole number from 0 to 2^resolution - 1. */
  write(value: number): void;
}

export interface AnalogOptions {
  pin: PinSpecifier;
  resolution?: number;
  onError?: (error: IOError) => void;
}

export interface Analog extends Closable {
  readonly resolution: number;
  /** A whole number from 0 to 2^resolution - 1. */
  read(): number;
}

// The provider ------------------------------------------------------------------------------

/**
 * What a host hands to drivers: one constructor per kind of IO it supports. A kind a host
 * lacks is absent, and drivers say which one they needed.
 */
export interface IOProvider {
  readonly name: string;
  Digital?: new (options: DigitalOptions) => Digital;
  DigitalBank?: new (options: DigitalBankOptions) => DigitalBank;
  I2C?: new (options: I2COptions) => I2C;
  SMBus?: new (options: I2COptions) => SMBus;
  Serial?: new (options: SerialOptions) => Serial;
  PWM?: new (options: PWMOptions) => PWM;
  Analog?: new (options: AnalogOptions) => Analog;
}

/** The constructor of one IO kind, or a clear "unsupported" error naming host and kind. */
export function requireIO<K extends Exclude<keyof IOProvider, "name">>(
  provider: IOProvider,
  kind: K,
): NonNullable<IOProvider[K]> {
  const io = provider[kind];
  if (!io) throw new IOError("unsupported", `${provider.name} has no ${kind} IO`);
  return io as NonNullable<IOProvider[K]>;
}

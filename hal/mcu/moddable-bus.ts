// Bus IO on Moddable hosts: I2C, SMBus, Serial and DigitalBank. The host's buffers
// (ArrayBuffer) come back as Uint8Array; a write-then-read is a write without a stop followed
// by a read, as ECMA-419 I2C has no combined call.
import {
  IOError,
  type DigitalBank,
  type DigitalBankOptions,
  type I2C,
  type I2COptions,
  type IOProvider,
  type Serial,
  type SerialOptions,
  type SMBus,
} from "../io.js";
import { modeConstants, type ModdablePins } from "./moddable-pins.js";
import type { ModdableClass, ModdableInstance } from "./moddable-types.js";

function bytesOf(value: unknown, what: string): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  throw new IOError("io", `${what}: the host returned ${typeof value}, not bytes`);
}

function i2cSettings(pins: ModdablePins, options: I2COptions): Record<string, unknown> {
  const settings: Record<string, unknown> = { hz: options.hz, address: options.address };
  if (options.data !== undefined) settings.data = pins.pin(options.data);
  if (options.clock !== undefined) settings.clock = pins.pin(options.clock);
  if (options.bus !== undefined) settings.port = options.bus;
  return settings;
}

export function createModdableBus(
  io: { I2C?: ModdableClass; SMBus?: ModdableClass; Serial?: ModdableClass; DigitalBank?: ModdableClass },
  pins: ModdablePins,
): Pick<IOProvider, "I2C" | "SMBus" | "Serial" | "DigitalBank"> {
  class McuI2C implements I2C {
    protected readonly native: ModdableInstance;
    protected readonly what: string;
    constructor(options: I2COptions, kind = "I2C", host: ModdableClass | undefined = io.I2C) {
      this.what = `I2C device 0x${options.address.toString(16)}`;
      this.native = pins.open(host!, kind, i2cSettings(pins, options));
    }
    read(count: number, stop?: boolean): Uint8Array {
      return pins.call(this.what, () => bytesOf(this.native.read(count, stop), this.what));
    }
    write(data: Uint8Array, stop?: boolean): void {
      pins.call(this.what, () => this.native.write(data, stop));
    }
    writeRead(data: Uint8Array, count: number): Uint8Array {
      this.write(data, false);
      return this.read(count);
    }
    close(): void {
      this.native.close();
    }
  }

  class McuSMBus extends McuI2C implements SMBus {
    constructor(options: I2COptions) {
      super(options, "SMBus", io.SMBus);
    }
    private run<T>(method: string, args: unknown[]): T {
      return pins.call(this.what, () => (this.native[method] as (...a: unknown[]) => T).apply(this.native, args));
    }
    readUint8(register: number): number {
      return this.run("readUint8", [register]);
    }
    readUint16(register: number, bigEndian?: boolean): number {
      return this.run("readUint16", [register, bigEndian]);
    }
    readBuffer(register: number, count: number): Uint8Array {
      const out = new Uint8Array(count);
      const answer = this.run<unknown>("readBuffer", [register, out]);
      return answer === undefined || answer === out ? out : bytesOf(answer, this.what);
    }
    writeUint8(register: number, value: number): void {
      this.run("writeUint8", [register, value]);
    }
    writeUint16(register: number, value: number, bigEndian?: boolean): void {
      this.run("writeUint16", [register, value, bigEndian]);
    }
    writeBuffer(register: number, data: Uint8Array): void {
      this.run("writeBuffer", [register, data]);
    }
  }

  class McuSerial implements Serial {
    private readonly native: ModdableInstance;
    private readonly what: string;
    constructor(options: SerialOptions) {
      this.what = `serial port ${options.port}`;
      const settings: Record<string, unknown> = { port: options.port, baud: options.baud, format: "buffer" };
      if (options.onReadable) settings.onReadable = options.onReadable;
      if (options.onWritable) settings.onWritable = options.onWritable;
      const onError = options.onError;
      if (onError) settings.onError = () => onError(new IOError("io", `${this.what} failed`));
      this.native = pins.open(io.Serial!, "Serial", settings);
    }
    read(count?: number): Uint8Array | undefined {
      const got = pins.call(this.what, () => this.native.read(count));
      return got === undefined ? undefined : bytesOf(got, this.what);
    }
    write(data: Uint8Array): void {
      pins.call(this.what, () => this.native.write(data));
    }
    close(): void {
      this.native.close();
    }
  }

  class McuDigitalBank implements DigitalBank {
    private readonly native: ModdableInstance;
    constructor(options: DigitalBankOptions) {
      const host = io.DigitalBank!;
      const settings: Record<string, unknown> = { pins: options.pins, mode: pins.constant(host, "DigitalBank", modeConstants[options.mode]) };
      if (options.rises !== undefined) settings.rises = options.rises;
      if (options.falls !== undefined) settings.falls = options.falls;
      if (options.onReadable) settings.onReadable = options.onReadable;
      this.native = pins.open(host, "DigitalBank", settings);
    }
    read(): number {
      return pins.call("digital bank", () => Number(this.native.read()));
    }
    write(value: number): void {
      pins.call("digital bank", () => this.native.write(value));
    }
    close(): void {
      this.native.close();
    }
  }

  return {
    ...(io.I2C ? { I2C: McuI2C } : {}),
    ...(io.SMBus ? { SMBus: McuSMBus } : {}),
    ...(io.Serial ? { Serial: McuSerial } : {}),
    ...(io.DigitalBank ? { DigitalBank: McuDigitalBank } : {}),
  };
}

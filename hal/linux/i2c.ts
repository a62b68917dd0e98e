// I2C on /dev/i2c-N through i2c-bus. The bus clock on Linux is set by the kernel (the device
// tree's clock-frequency, `dtparam=i2c_arm_baudrate` on a Pi), so `hz` is not applied here.
// Adapters that only speak SMBus (many PC controllers, the kernel's i2c-stub) still serve the
// register-style transfers drivers make: a write is sent as an SMBus write, and a one-byte
// write followed by a read as an SMBus block read with its repeated start.
import { existsSync } from "node:fs";
import { IOError, type I2C, type I2COptions } from "../io.js";
import type { I2cBusHandle, I2cBusLibrary, I2cFuncs } from "./native.js";
import { ioErrorFrom } from "./system-error.js";

/** The most an SMBus block transfer carries. */
export const SMBUS_BLOCK_MAX = 32;

export interface LinuxI2COptions {
  i2c: I2cBusLibrary;
  /** The bus used when a driver names none. */
  defaultBus: number;
}

export function createLinuxI2CClass(options: LinuxI2COptions): new (o: I2COptions) => LinuxI2C {
  const { i2c, defaultBus } = options;
  return class extends LinuxI2C {
    constructor(o: I2COptions) {
      super(i2c, o, defaultBus);
    }
  };
}

export class LinuxI2C implements I2C {
  protected readonly bus: I2cBusHandle;
  protected readonly address: number;
  protected readonly funcs: I2cFuncs;
  /** `0x40 on /dev/i2c-1`, for messages. */
  protected readonly where: string;
  private closed = false;

  constructor(i2c: I2cBusLibrary, options: I2COptions, defaultBus: number) {
    const busNumber = options.bus ?? defaultBus;
    const { address } = options;
    if (!Number.isInteger(address) || address < 0 || address > 0x7f) {
      throw new IOError("invalid", `I2C address must be 0x00-0x7f, got ${address}`);
    }
    if (!Number.isInteger(busNumber) || busNumber < 0) throw new IOError("invalid", `I2C bus must be a whole number, got ${busNumber}`);
    const path = `/dev/i2c-${busNumber}`;
    if (!existsSync(path)) {
      throw new IOError("io", `${path} not found: enable the I2C bus (on a Pi: dtparam=i2c_arm=on) and load i2c-dev (modprobe i2c-dev)`);
    }
    this.address = address;
    this.where = `0x${address.toString(16)} on ${path}`;
    const bus = i2c.openSync(busNumber);
    try {
      // Opens the device file and asks what the adapter can do; the handle is closed on failure.
      this.funcs = bus.i2cFuncsSync();
    } catch (thrown) {
      safeClose(bus);
      throw ioErrorFrom(thrown, path, "may this user open it? (the i2c group)");
    }
    this.bus = bus;
  }

  read(count: number): Uint8Array {
    this.check();
    const buffer = new Uint8Array(count);
    if (this.funcs.i2c) {
      this.run(() => this.bus.i2cReadSync(this.address, count, asBuffer(buffer)));
    } else if (count === 1 && this.funcs.smbusReceiveByte) {
      buffer[0] = this.run(() => this.bus.receiveByteSync(this.address));
    } else {
      throw new IOError("unsupported", `${this.where}: the adapter speaks only SMBus; read registers with writeRead or SMBus`);
    }
    return buffer;
  }

  write(data: Uint8Array): void {
    this.check();
    if (data.length === 0) return;
    if (this.funcs.i2c) {
      this.run(() => this.bus.i2cWriteSync(this.address, data.length, asBuffer(data)));
      return;
    }
    if (data.length === 1) this.run(() => this.bus.sendByteSync(this.address, data[0]!));
    else if (data.length === 2) this.run(() => this.bus.writeByteSync(this.address, data[0]!, data[1]!));
    else if (data.length <= SMBUS_BLOCK_MAX + 1) {
      const rest = data.subarray(1);
      this.run(() => this.bus.writeI2cBlockSync(this.address, data[0]!, rest.length, asBuffer(rest)));
    } else throw new IOError("unsupported", `${this.where}: the adapter speaks only SMBus, which writes at most ${SMBUS_BLOCK_MAX + 1} bytes at once`);
  }

  writeRead(data: Uint8Array, count: number): Uint8Array {
    this.check();
    // A register read: SMBus block read, one transfer with a repeated start.
    if (data.length === 1 && count <= SMBUS_BLOCK_MAX && this.funcs.smbusReadI2cBlock) {
      const buffer = new Uint8Array(count);
      const got = this.run(() => this.bus.readI2cBlockSync(this.address, data[0]!, count, asBuffer(buffer)));
      if (got !== count) throw new IOError("io", `${this.where}: read ${got} of ${count} bytes`);
      return buffer;
    }
    this.write(data);
    return this.read(count);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    safeClose(this.bus);
  }

  protected run<T>(transfer: () => T): T {
    try {
      return transfer();
    } catch (thrown) {
      throw ioErrorFrom(thrown, this.where);
    }
  }

  protected check(): void {
    if (this.closed) throw new IOError("closed", `I2C device ${this.where} is closed`);
  }
}

/** i2c-bus takes Buffers only: a view over the same bytes, so reads land in `bytes`. */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function safeClose(bus: I2cBusHandle): void {
  try {
    bus.closeSync();
  } catch {
    // Closing a file that failed to open has nothing to release.
  }
}

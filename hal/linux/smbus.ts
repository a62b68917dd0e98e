// SMBus register access on /dev/i2c-N through i2c-bus: byte, word and block transfers as the
// kernel's SMBus calls, which every Linux I2C adapter serves. SMBus words are little-endian on
// the wire; `bigEndian` swaps them for parts that send the high byte first.
import { IOError, type I2COptions, type SMBus } from "../io.js";
import { asBuffer, LinuxI2C, SMBUS_BLOCK_MAX } from "./i2c.js";
import type { I2cBusLibrary } from "./native.js";

const swap16 = (v: number) => ((v & 0xff) << 8) | ((v >> 8) & 0xff);

export class LinuxSMBus extends LinuxI2C implements SMBus {
  readUint8(register: number): number {
    this.check();
    return this.run(() => this.bus.readByteSync(this.address, register));
  }

  readUint16(register: number, bigEndian = false): number {
    this.check();
    const word = this.run(() => this.bus.readWordSync(this.address, register));
    return bigEndian ? swap16(word) : word;
  }

  readBuffer(register: number, count: number): Uint8Array {
    this.check();
    const out = new Uint8Array(count);
    for (let offset = 0; offset < count; offset += SMBUS_BLOCK_MAX) {
      const n = Math.min(SMBUS_BLOCK_MAX, count - offset);
      const chunk = out.subarray(offset, offset + n);
      const got = this.run(() => this.bus.readI2cBlockSync(this.address, (register + offset) & 0xff, n, asBuffer(chunk)));
      if (got !== n) throw new IOError("io", `${this.where}: read ${got} of ${n} bytes at register 0x${register.toString(16)}`);
    }
    return out;
  }

  writeUint8(register: number, value: number): void {
    this.check();
    this.run(() => this.bus.writeByteSync(this.address, register, value & 0xff));
  }

  writeUint16(register: number, value: number, bigEndian = false): void {
    this.check();
    const word = value & 0xffff;
    this.run(() => this.bus.writeWordSync(this.address, register, bigEndian ? swap16(word) : word));
  }

  writeBuffer(register: number, data: Uint8Array): void {
    this.check();
    for (let offset = 0; offset < data.length; offset += SMBUS_BLOCK_MAX) {
      const chunk = data.subarray(offset, offset + SMBUS_BLOCK_MAX);
      this.run(() => this.bus.writeI2cBlockSync(this.address, (register + offset) & 0xff, chunk.length, asBuffer(chunk)));
    }
  }
}

export function createLinuxSMBusClass(i2c: I2cBusLibrary, defaultBus: number): new (o: I2COptions) => SMBus {
  return class extends LinuxSMBus {
    constructor(o: I2COptions) {
      super(i2c, o, defaultBus);
    }
  };
}

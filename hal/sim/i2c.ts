// Simulated I2C devices on numbered buses. A device is a model that takes the bytes of each
// write and answers each read; the plain one is a 256-byte register file with the usual
// register-pointer protocol (the first byte written sets the pointer, later bytes write on from
// there; reads continue from the pointer), enough for most register-mapped parts. Parts whose
// registers are wider than a byte (INA219, ADS1115) bring their own model.
import { IOError, type I2C, type I2COptions, type SMBus } from "../io.js";

/** One device on the simulated bus, seen from the wire: each write and each read transfer. */
export interface SimI2CModel {
  write(data: Uint8Array): void;
  read(count: number): Uint8Array;
}

export interface SimI2CDevice {
  bus?: number;
  address: number;
  /** Initial register values by register number (register-file devices). */
  registers?: Record<number, number>;
  /** A device model of its own; `registers` is then ignored. */
  model?: SimI2CModel;
}

export interface SimI2CBus {
  /** The register file of a register-file device at (bus, address), for tests to inspect or preset. */
  device(bus: number, address: number): Uint8Array | undefined;
  I2C: new (options: I2COptions) => I2C;
  SMBus: new (options: I2COptions) => SMBus;
}

interface RegisterFile extends SimI2CModel {
  registers: Uint8Array;
}

function createRegisterFile(initial: Record<number, number>): RegisterFile {
  const registers = new Uint8Array(256);
  for (const [reg, value] of Object.entries(initial)) registers[Number(reg) & 0xff] = value & 0xff;
  let pointer = 0;
  return {
    registers,
    write(data) {
      if (data.length === 0) return;
      pointer = data[0]!;
      for (let i = 1; i < data.length; i++) registers[(pointer + i - 1) & 0xff] = data[i]!;
      if (data.length > 1) pointer = (pointer + data.length - 1) & 0xff;
    },
    read(count) {
      const out = new Uint8Array(count);
      for (let i = 0; i < count; i++) out[i] = registers[(pointer + i) & 0xff]!;
      pointer = (pointer + count) & 0xff;
      return out;
    },
  };
}

export function createSimI2C(devices: readonly SimI2CDevice[]): SimI2CBus {
  const models = new Map<string, SimI2CModel>();
  const files = new Map<string, Uint8Array>();
  const key = (bus: number, address: number) => `${bus}:${address}`;
  for (const d of devices) {
    const k = key(d.bus ?? 1, d.address);
    if (d.model) {
      models.set(k, d.model);
    } else {
      const file = createRegisterFile(d.registers ?? {});
      models.set(k, file);
      files.set(k, file.registers);
    }
  }

  class SimI2C implements I2C {
    protected closed = false;
    private readonly model: SimI2CModel;
    private readonly where: string;
    constructor(options: I2COptions) {
      const bus = options.bus ?? 1;
      this.where = `0x${options.address.toString(16)} on bus ${bus}`;
      if (!Number.isInteger(options.address) || options.address < 0 || options.address > 0x7f) {
        throw new IOError("invalid", `I2C address must be 0x00-0x7f, got ${options.address}`);
      }
      const model = models.get(key(bus, options.address));
      if (!model) throw new IOError("io", `no device answers at ${this.where}`);
      this.model = model;
    }
    read(count: number): Uint8Array {
      this.check();
      return this.model.read(count);
    }
    write(data: Uint8Array): void {
      this.check();
      this.model.write(Uint8Array.from(data));
    }
    writeRead(data: Uint8Array, count: number): Uint8Array {
      this.write(data);
      return this.read(count);
    }
    close(): void {
      this.closed = true;
    }
    protected check(): void {
      if (this.closed) throw new IOError("closed", `I2C device ${this.where} is closed`);
    }
  }

  class SimSMBus extends SimI2C implements SMBus {
    readUint8(register: number): number {
      return this.writeRead(Uint8Array.of(register), 1)[0]!;
    }
    readUint16(register: number, bigEndian = false): number {
      const [a, b] = this.writeRead(Uint8Array.of(register), 2) as unknown as [number, number];
      return bigEndian ? (a << 8) | b : (b << 8) | a;
    }
    readBuffer(register: number, count: number): Uint8Array {
      return this.writeRead(Uint8Array.of(register), count);
    }
    writeUint8(register: number, value: number): void {
      this.write(Uint8Array.of(register, value & 0xff));
    }
    writeUint16(register: number, value: number, bigEndian = false): void {
      const hi = (value >> 8) & 0xff;
      const lo = value & 0xff;
      this.write(bigEndian ? Uint8Array.of(register, hi, lo) : Uint8Array.of(register, lo, hi));
    }
    writeBuffer(register: number, data: Uint8Array): void {
      const out = new Uint8Array(data.length + 1);
      out[0] = register;
      out.set(data, 1);
      this.write(out);
    }
  }

  return {
    device: (bus, address) => files.get(key(bus, address)),
    I2C: SimI2C,
    SMBus: SimSMBus,
  };
}

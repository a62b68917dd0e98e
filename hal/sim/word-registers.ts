// The wire protocol most 16-bit I2C parts share (INA219, ADS1x15, many others): a write of one
// byte sets the register pointer, a write of three bytes sets a register MSB first, and a read
// returns the pointed-at register MSB first. The part's behaviour sits in the hooks.
import type { SimI2CModel } from "./i2c.js";

export interface WordRegisterHooks {
  /** A register written from the bus; return false to ignore a read-only register. */
  written?(register: number, value: number): boolean | void;
}

export interface WordRegisters extends SimI2CModel {
  get(register: number): number;
  set(register: number, value: number): void;
}

export function createWordRegisters(initial: Record<number, number>, hooks: WordRegisterHooks = {}): WordRegisters {
  const values = new Map<number, number>();
  for (const [reg, value] of Object.entries(initial)) values.set(Number(reg), value & 0xffff);
  let pointer = 0;
  return {
    get: (register) => values.get(register) ?? 0,
    set: (register, value) => void values.set(register, value & 0xffff),
    write(data) {
      if (data.length === 0) return;
      pointer = data[0]!;
      if (data.length < 3) return;
      const value = (data[1]! << 8) | data[2]!;
      if (hooks.written?.(pointer, value) !== false) values.set(pointer, value);
    },
    read(count) {
      const value = values.get(pointer) ?? 0;
      const out = new Uint8Array(count);
      for (let i = 0; i < count; i++) out[i] = i % 2 === 0 ? value >> 8 : value & 0xff;
      return out;
    },
  };
}

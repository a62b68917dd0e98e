// A simulated INA219 current and power monitor: the shunt voltage (10 uV steps) and bus voltage
// (4 mV steps) registers a driver reads, set by a test in volts. Writing the reset bit of the
// configuration register restores the power-on values, as on the part.
import { createWordRegisters, type WordRegisters } from "./word-registers.js";

export const INA219_CONFIG_DEFAULT = 0x399f;

export interface SimIna219 extends WordRegisters {
  /** What the part measures: volts across the shunt and on the bus. */
  setVolts(levels: { shunt?: number; bus?: number }): void;
}

export function createSimIna219(levels: { shunt?: number; bus?: number } = {}): SimIna219 {
  const registers = createWordRegisters({ 0: INA219_CONFIG_DEFAULT }, {
    written(register, value) {
      if (register === 0 && value & 0x8000) {
        registers.set(0, INA219_CONFIG_DEFAULT);
        return false;
      }
      // Shunt voltage, bus voltage, power and current are measurements, read only.
      return register === 0 || register === 5;
    },
  });
  const setVolts = (next: { shunt?: number; bus?: number }) => {
    if (next.shunt !== undefined) {
      const steps = Math.max(-32000, Math.min(32000, Math.round(next.shunt / 10e-6)));
      registers.set(1, steps & 0xffff);
    }
    if (next.bus !== undefined) {
      const steps = Math.max(0, Math.min(8000, Math.round(next.bus / 4e-3)));
      // Bit 1 (CNVR) says a conversion is ready.
      registers.set(2, (steps << 3) | 0b10);
    }
  };
  setVolts({ shunt: levels.shunt ?? 0, bus: levels.bus ?? 0 });
  return { ...registers, setVolts };
}

// A simulated ADS1115 (or ADS1015) analog-to-digital converter: four inputs a test sets in
// volts; a single-shot conversion starts when the configuration register is written with its
// OS bit, and lands at once in the conversion register, scaled by the chosen gain.
import { createWordRegisters, type WordRegisters } from "./word-registers.js";

/** Full-scale volts of each PGA setting (bits 11:9 of the configuration register). */
export const ADS1X15_FULL_SCALE = [6.144, 4.096, 2.048, 1.024, 0.512, 0.256, 0.256, 0.256] as const;

export interface SimAds1x15 extends WordRegisters {
  setVolts(channel: 0 | 1 | 2 | 3, volts: number): void;
}

export function createSimAds1x15(part: "ads1115" | "ads1015" = "ads1115"): SimAds1x15 {
  const inputs = [0, 0, 0, 0];
  const convert = (config: number) => {
    const mux = (config >> 12) & 0b111;
    // 100..111 are single-ended inputs 0..3; the differential pairs of 000..011 are 0-1, 0-3, 1-3, 2-3.
    const pairs: Array<[number, number | undefined]> = [[0, 1], [0, 3], [1, 3], [2, 3], [0, undefined], [1, undefined], [2, undefined], [3, undefined]];
    const [p, n] = pairs[mux]!;
    const volts = inputs[p]! - (n === undefined ? 0 : inputs[n]!);
    const fullScale = ADS1X15_FULL_SCALE[(config >> 9) & 0b111]!;
    const code = Math.max(-32768, Math.min(32767, Math.round((volts / fullScale) * 32768)));
    return part === "ads1115" ? code : (code >> 4) << 4;
  };
  const registers = createWordRegisters({ 0: 0, 1: 0x8583, 2: 0x8000, 3: 0x7fff }, {
    written(register, value) {
      if (register === 0) return false;
      if (register === 1) {
        if (value & 0x8000) registers.set(0, convert(value));
        // OS reads 1 once the conversion is done, which here is at once.
        registers.set(1, value | 0x8000);
        return false;
      }
      return true;
    },
  });
  return {
    ...registers,
    setVolts(channel, volts) {
      inputs[channel] = volts;
    },
  };
}

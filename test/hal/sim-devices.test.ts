// The simulated INA219 and ADS1115 answer on the wire as the parts do, so their drivers can be
// tested on the sim board.
import { describe, expect, it } from "vitest";
import { requireIO } from "../../hal/io.js";
import { createSimAds1x15, createSimBoard, createSimIna219, INA219_CONFIG_DEFAULT } from "../../hal/sim/index.js";

describe("simulated INA219", () => {
  it("reports shunt and bus voltage in the part's steps, MSB first", () => {
    const ina = createSimIna219({ shunt: 0.0125, bus: 5 });
    const board = createSimBoard({ i2c: [{ address: 0x40, model: ina }] });
    const bus = new (requireIO(board.io, "SMBus"))({ address: 0x40, hz: 400_000 });
    expect(bus.readUint16(0, true)).toBe(INA219_CONFIG_DEFAULT);
    expect(bus.readUint16(1, true)).toBe(1250);
    expect(bus.readUint16(2, true) >> 3).toBe(1250);
    ina.setVolts({ shunt: -0.001 });
    expect(bus.readUint16(1, true)).toBe(0x10000 - 100);
    // Measurements are read only; the reset bit restores the configuration.
    bus.writeUint16(2, 0, true);
    expect(bus.readUint16(2, true) >> 3).toBe(1250);
    bus.writeUint16(0, 0x1234, true);
    expect(bus.readUint16(0, true)).toBe(0x1234);
    bus.writeUint16(0, 0x8000, true);
    expect(bus.readUint16(0, true)).toBe(INA219_CONFIG_DEFAULT);
  });
});

describe("simulated ADS1115", () => {
  it("converts the chosen input at the chosen gain when a single shot starts", () => {
    const adc = createSimAds1x15();
    const board = createSimBoard({ i2c: [{ address: 0x48, model: adc }] });
    const bus = new (requireIO(board.io, "SMBus"))({ address: 0x48, hz: 400_000 });
    adc.setVolts(2, 1.024);
    // OS=1, MUX=110 (input 2), PGA=001 (4.096 V), single shot.
    bus.writeUint16(1, 0x8000 | (0b110 << 12) | (0b001 << 9) | 0x100, true);
    expect(bus.readUint16(1, true) & 0x8000).toBe(0x8000);
    expect(bus.readUint16(0, true)).toBe(8192);
    const ads1015 = createSimAds1x15("ads1015");
    ads1015.setVolts(0, 1);
    ads1015.write(Uint8Array.of(1, 0xc3, 0x00));
    ads1015.write(Uint8Array.of(0));
    const [hi, lo] = ads1015.read(2);
    expect(((hi! << 8) | lo!) & 0xf).toBe(0);
  });
});

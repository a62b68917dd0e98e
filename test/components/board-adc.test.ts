// Analog readers on an ADS1115/ADS1015 converter over I2C, for boards without analog inputs:
// the reading, its range in volts, and the attributes that choose the converter.
import { afterEach, describe, expect, it } from "vitest";
import type { Board } from "../../core/components/index.js";
import { createSimAds1x15 } from "../../hal/sim/index.js";
import { createTestMachine, entry, type TestMachine } from "./test-machine.js";

let machine: TestMachine;
afterEach(() => machine?.closeAll());

describe("analog readers on an I2C converter", () => {
  it("reads each input single-shot, with the converter's range", async () => {
    const adc = createSimAds1x15();
    machine = createTestMachine({ i2c: [{ bus: 1, address: 0x48, model: adc }] });
    const board = await machine.build<Board>(
      entry("board", "b", {
        analogs: [
          { name: "battery", pin: "0", i2c_bus: "1" },
          { name: "light", pin: 3, i2c_bus: 1, i2c_address: 0x48 },
        ],
      }),
    );
    adc.setVolts(0, 3.3);
    adc.setVolts(3, 0.5);
    expect(await board.readAnalogReader("battery")).toEqual({ value: Math.round((3.3 / 4.096) * 32768), minRange: 0, maxRange: 4.096, stepSize: 4.096 / 32768 });
    expect((await board.readAnalogReader("light")).value).toBe(4000);
    // A negative input reads as zero on a single-ended channel.
    adc.setVolts(3, -0.2);
    expect((await board.readAnalogReader("light")).value).toBe(0);
  });

  it("reads an ADS1015 at its 11 bits", async () => {
    const adc = createSimAds1x15("ads1015");
    machine = createTestMachine({ i2c: [{ bus: 2, address: 0x49, model: adc }] });
    const board = await machine.build<Board>(entry("board", "b", { analogs: [{ name: "a", pin: "1", i2c_bus: 2, i2c_address: 0x49, adc: "ads1015" }] }));
    adc.setVolts(1, 2.048);
    expect(await board.readAnalogReader("a")).toEqual({ value: 1024, minRange: 0, maxRange: 4.096, stepSize: 4.096 / 2048 });
  });

  it("fails the build naming the reader when the converter does not answer", async () => {
    machine = createTestMachine();
    await expect(machine.build(entry("board", "b", { analogs: [{ name: "battery", pin: "0", i2c_bus: 1 }] }))).rejects.toThrow(
      'analog reader "battery" (pin 0): no device answers at 0x48 on bus 1',
    );
  });

  it("validates the converter's attributes with their paths", () => {
    machine = createTestMachine();
    const result = machine.validate(
      entry("board", "b", {
        analogs: [
          { name: "a", pin: "4", i2c_bus: 1 },
          { name: "b", pin: "0", i2c_address: 0x48 },
          { name: "c", pin: "1", i2c_bus: "one", adc: "mcp3008" },
          { name: "d", pin: "0", i2c_bus: 1 },
          { name: "e", pin: "0", i2c_bus: 1, i2c_address: 0x49 },
          { name: "f", pin: "0", i2c_bus: 1 },
        ],
      }),
      "components[1]",
    );
    expect(result.issues.map((i) => `${i.path}: ${i.message}`)).toEqual([
      "components[1].attributes.analogs[0].pin: must be an input of the converter, 0 to 3",
      "components[1].attributes.analogs[1].i2c_bus: required",
      "components[1].attributes.analogs[2].i2c_bus: must be a bus number, like 1 for /dev/i2c-1",
      "components[1].attributes.analogs[2].adc: must be one of ads1115, ads1015",
      "components[1].attributes.analogs[5].pin: pin 0 is used by an earlier entry of analogs",
    ]);
  });
});

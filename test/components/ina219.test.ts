// The INA219 power sensor on a simulated INA219: volts, amperes and watts from the part's shunt
// and bus registers, with the shunt resistance configured.
import { afterEach, describe, expect, it } from "vitest";
import type { PowerSensor } from "../../core/components/index.js";
import { createSimIna219, INA219_CONFIG_DEFAULT } from "../../hal/sim/index.js";
import { createTestMachine, entry, type TestMachine } from "./test-machine.js";

let machine: TestMachine;
afterEach(() => machine?.closeAll());
const ina219 = (attributes: Record<string, unknown>) => entry("power_sensor", "power", attributes, "rdk:builtin:ina219");

describe("INA219 power sensor", () => {
  it("reads bus voltage, current through the shunt and power", async () => {
    const part = createSimIna219({ bus: 5.2, shunt: 0.05 });
    machine = createTestMachine({ i2c: [{ bus: 1, address: 0x40, model: part }] });
    const sensor = await machine.build<PowerSensor>(ina219({ i2c_bus: "1" }));
    expect(part.get(0)).toBe(0x399f);
    expect((await sensor.getVoltage()).volts).toBeCloseTo(5.2, 6);
    expect(await sensor.getCurrent()).toEqual({ amperes: expect.closeTo(0.5, 6), isAc: false });
    expect(await sensor.getPower()).toBeCloseTo(2.6, 6);
    part.setVolts({ shunt: -0.01 });
    expect((await sensor.getCurrent()).amperes).toBeCloseTo(-0.1, 6);
    const readings = await sensor.getReadings();
    expect(readings).toEqual({ voltage: expect.closeTo(5.2, 6), current: expect.closeTo(-0.1, 6), power: expect.closeTo(-0.52, 6), is_ac: false });
  });

  it("uses the address and shunt resistance given", async () => {
    const part = createSimIna219({ bus: 12, shunt: 0.01 });
    machine = createTestMachine({ i2c: [{ bus: 3, address: 0x45, model: part }] });
    const sensor = await machine.build<PowerSensor>(ina219({ i2c_bus: 3, i2c_addr: 0x45, shunt_resistance: 0.01 }));
    expect((await sensor.getCurrent()).amperes).toBeCloseTo(1, 6);
    await sensor.close();
    await expect(sensor.getPower()).rejects.toThrow("power sensor power is closed");
  });

  it("fails its build when nothing answers, and validates its attributes", async () => {
    machine = createTestMachine({ i2c: [{ bus: 1, address: 0x41, model: createSimIna219() }] });
    await expect(machine.build(ina219({ i2c_bus: 1 }))).rejects.toThrow("no device answers at 0x40 on bus 1");
    const issues = machine.validate(ina219({ i2c_addr: 200, shunt_resistance: 0 }), "components[2]").issues.map((i) => `${i.path}: ${i.message}`);
    expect(issues).toEqual([
      "components[2].attributes.i2c_bus: required",
      "components[2].attributes.i2c_addr: must be at most 127",
      "components[2].attributes.shunt_resistance: must be greater than 0",
    ]);
    expect(machine.validate(ina219({ i2c_bus: "i2c1" })).issues.map((i) => i.message)).toEqual(["must be a bus number, like 1 for /dev/i2c-1"]);
    expect(INA219_CONFIG_DEFAULT).toBe(0x399f);
  });
});

// The fake sensors return plausible or configured values; the generic fakes echo DoCommand;
// every model is registered with an attribute schema.
import { afterEach, describe, expect, it } from "vitest";
import {
  isActuator,
  type GenericComponent,
  type GenericService,
  type MovementSensor,
  type PowerSensor,
  type Sensor,
} from "../../core/components/index.js";
import { hasReadings } from "../../core/resource/index.js";
import { createTestMachine, entry, type TestMachine } from "./test-machine.js";

let machine: TestMachine;
afterEach(() => machine?.closeAll());

describe("fake sensors", () => {
  it("returns the readings given in attributes, or a default set", async () => {
    machine = createTestMachine();
    const plain = await machine.build<Sensor>(entry("sensor", "s1"));
    expect(await plain.getReadings()).toEqual({ a: 1, b: 2, c: 3 });
    const given = await machine.build<Sensor>(entry("sensor", "s2", { readings: { temp_c: 21.5, door: "open" } }));
    const first = await given.getReadings();
    first.temp_c = 99;
    expect(await given.getReadings()).toEqual({ temp_c: 21.5, door: "open" });
    const nested = await machine.build<Sensor>(entry("sensor", "s4", { readings: { imu: { x: 1 }, list: [1, 2] } }));
    ((await nested.getReadings()).imu as { x: number }).x = 5;
    expect(await nested.getReadings()).toEqual({ imu: { x: 1 }, list: [1, 2] });
    expect(hasReadings(given)).toBe(true);
    expect(isActuator(given)).toBe(false);
    expect(machine.validate(entry("sensor", "s3", { readings: [1] })).issues[0]).toMatchObject({
      path: "components[0].attributes.readings",
      message: "must be an object",
    });
  });

  it("gives a movement sensor's values, defaults and overrides", async () => {
    machine = createTestMachine();
    const ms = await machine.build<MovementSensor>(
      entry("movement_sensor", "gps", { compass_heading: 90, linear_velocity: { x: 1.5 }, position: { latitude: 51.5, longitude: -0.12 } }),
    );
    expect(await ms.getCompassHeading()).toBe(90);
    expect(await ms.getLinearVelocity()).toEqual({ x: 1.5, y: 0, z: 0 });
    expect(await ms.getPosition()).toEqual({ coordinate: { latitude: 51.5, longitude: -0.12 }, altitudeM: 50.5 });
    expect(await ms.getLinearAcceleration()).toEqual({ x: 0, y: 0, z: 9.81 });
    expect(await ms.getOrientation()).toEqual({ oX: 0, oY: 0, oZ: 1, theta: 25 });
    expect(Object.values(await ms.getProperties()).every((v) => v === true)).toBe(true);
    expect(await ms.getAccuracy()).toMatchObject({ position_hdop: 0.9 });
    expect(await ms.getReadings()).toMatchObject({ compass: 90, altitude: 50.5, position: { latitude: 51.5, longitude: -0.12 } });
    const bad = machine.validate(entry("movement_sensor", "m", { compass_heading: 400, accuracy: { hdop: "x" } }));
    expect(bad.issues.map((i) => `${i.path}: ${i.message}`)).toEqual([
      "components[0].attributes.compass_heading: must be at most 360",
      "components[0].attributes.accuracy.hdop: must be a number",
    ]);
  });

  it("gives a power sensor's voltage, current and power", async () => {
    machine = createTestMachine();
    const ps = await machine.build<PowerSensor>(entry("power_sensor", "p", { voltage: 5, current: 2 }));
    expect(await ps.getVoltage()).toEqual({ volts: 5, isAc: false });
    expect(await ps.getCurrent()).toEqual({ amperes: 2, isAc: false });
    expect(await ps.getPower()).toBe(10);
    expect(await ps.getReadings()).toEqual({ voltage: 5, current: 2, is_ac: false, power: 10 });
  });
});

describe("generic fakes and the registry", () => {
  it("echoes DoCommand on the generic component and service", async () => {
    machine = createTestMachine();
    const component = await machine.build<GenericComponent>(entry("generic", "g"));
    const service = await machine.build<GenericService>(entry("generic_service", "svc"));
    const command = { command: "blink", times: 3, nested: { on: [true, false] } };
    expect(await component.doCommand(command)).toEqual(command);
    expect(await service.doCommand(command)).toEqual(command);
  });

  it("echoes DoCommand on every fake", async () => {
    machine = createTestMachine();
    const kinds = ["sensor", "board", "motor", "servo", "encoder", "movement_sensor", "power_sensor", "generic", "generic_service"];
    for (const kind of kinds) {
      const resource = await machine.build<GenericComponent>(entry(kind, `x-${kind}`));
      expect(await resource.doCommand({ kind, n: [1, 2] })).toEqual({ kind, n: [1, 2] });
    }
  });

  it("registers every built-in model with an attribute schema", () => {
    machine = createTestMachine();
    const listed = machine.registry.list();
    expect(listed.map((m) => `${m.api} ${m.model}`)).toEqual([
      "rdk:component:board rdk:builtin:fake",
      "rdk:component:encoder rdk:builtin:fake",
      "rdk:component:generic rdk:builtin:fake",
      "rdk:component:motor rdk:builtin:fake",
      "rdk:component:motor rdk:builtin:gpio",
      "rdk:component:movement_sensor rdk:builtin:fake",
      "rdk:component:power_sensor rdk:builtin:fake",
      "rdk:component:power_sensor rdk:builtin:ina219",
      "rdk:component:sensor rdk:builtin:fake",
      "rdk:component:sensor rdk:builtin:serial-line",
      "rdk:component:servo rdk:builtin:fake",
      "rdk:service:generic rdk:builtin:fake",
    ]);
    for (const m of listed) expect(m.attributesSchema).toMatchObject({ type: "object" });
  });
});

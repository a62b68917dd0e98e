// The serial line sensor on a simulated serial port: key=value lines become readings, each key
// keeping its last value, whatever way the bytes are cut on arrival.
import { afterEach, describe, expect, it } from "vitest";
import { parseKeyValueLine, type Sensor } from "../../core/components/index.js";
import { createTestMachine, entry, tick, type TestMachine } from "./test-machine.js";

let machine: TestMachine;
afterEach(() => machine?.closeAll());
const bytes = (s: string) => new TextEncoder().encode(s);
const lineSensor = (attributes: Record<string, unknown>) => entry("sensor", "env", attributes, "rdk:builtin:serial-line");

describe("key=value lines", () => {
  it("reads numbers, booleans and text, split by spaces, commas or semicolons", () => {
    expect(parseKeyValueLine("temp=21.5 hum=40,door=open;ok=true  bad=false n=-1e3 v=.5 id=0x1F noise =x")).toEqual({
      temp: 21.5,
      hum: 40,
      door: "open",
      ok: true,
      bad: false,
      n: -1000,
      v: 0.5,
      id: "0x1F",
    });
    expect(parseKeyValueLine("")).toEqual({});
    expect(parseKeyValueLine("label=")).toEqual({ label: "" });
  });
});

describe("serial line sensor", () => {
  it("reads lines as they arrive, however the bytes are cut", async () => {
    machine = createTestMachine({ serial: { "/dev/ttyUSB0": "loopback" } });
    const sensor = await machine.build<Sensor>(lineSensor({ serial_path: "/dev/ttyUSB0" }));
    await expect(sensor.getReadings()).rejects.toThrow("sensor env has no reading from /dev/ttyUSB0 yet");
    machine.sim.injectSerial("/dev/ttyUSB0", bytes("temp=21"));
    await tick();
    await expect(sensor.getReadings()).rejects.toThrow(/no reading/);
    machine.sim.injectSerial("/dev/ttyUSB0", bytes(".5 hum=40\r\nstate=°C ok\n"));
    await tick();
    expect(await sensor.getReadings()).toEqual({ temp: 21.5, hum: 40, state: "°C" });
    machine.sim.injectSerial("/dev/ttyUSB0", bytes("hum=41\n"));
    await tick();
    const readings = await sensor.getReadings();
    expect(readings).toEqual({ temp: 21.5, hum: 41, state: "°C" });
    // Each caller gets its own copy.
    readings.temp = 0;
    expect((await sensor.getReadings()).temp).toBe(21.5);
  });

  it("drops a line too long to keep, and reads the next", async () => {
    machine = createTestMachine({ serial: { "/dev/ttyS1": "loopback" } });
    const sensor = await machine.build<Sensor>(lineSensor({ serial_path: "/dev/ttyS1", serial_baud_rate: 115200 }));
    machine.sim.injectSerial("/dev/ttyS1", bytes(`junk=${"x".repeat(5000)}\nlevel=3\n`));
    await tick();
    expect(await sensor.getReadings()).toEqual({ level: 3 });
  });

  it("closes its port, so the port opens again", async () => {
    machine = createTestMachine({ serial: { "/dev/ttyS1": "loopback" } });
    const sensor = await machine.build<Sensor>(lineSensor({ serial_path: "/dev/ttyS1" }));
    await sensor.close();
    await expect(sensor.getReadings()).rejects.toThrow("sensor env is closed");
    await machine.build<Sensor>(lineSensor({ serial_path: "/dev/ttyS1" }));
  });

  it("fails its build on a port the host does not have, and validates its attributes", async () => {
    machine = createTestMachine();
    await expect(machine.build(lineSensor({ serial_path: "/dev/ttyNONE" }))).rejects.toThrow('the simulated board has no serial port "/dev/ttyNONE"');
    const issues = machine.validate(lineSensor({ serial_baud_rate: 0 }), "components[4]").issues.map((i) => `${i.path}: ${i.message}`);
    expect(issues).toEqual(["components[4].attributes.serial_path: required", "components[4].attributes.serial_baud_rate: must be greater than 0"]);
  });
});

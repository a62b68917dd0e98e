// GPIO on Linux: the real node-libgpiod where this machine allows it (no GPIO chip here, so the
// errors a person meets without one), the backend's modes, edges and holds over a stand-in for
// the kernel's lines, board definitions, and what a missing library says to install.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { IOError, requireIO } from "../../hal/io.js";
import { INSTALL_HINTS, loadNativeLibraries, openLinuxIO, parseGenericDefinition, raspberryPi, raspberryPi4, raspberryPi5 } from "../../hal/linux/index.js";
import { runConformance } from "../../tools/hal-conformance/conformance.js";
import { createGpiodStandIn } from "../helpers/gpiod-stand-in.js";

const dev = mkdtempSync(join(tmpdir(), "svc-dev-"));
writeFileSync(join(dev, "gpiochip0"), "");
afterAll(() => rmSync(dev, { recursive: true, force: true }));

describe("GPIO through the real node-libgpiod", () => {
  it("loads, and names the chip device it could not find", async () => {
    const libraries = await loadNativeLibraries(["gpiod"]);
    expect(libraries.missing).toEqual({});
    const host = await openLinuxIO({ definition: raspberryPi4(), libraries, devRoot: "/nonexistent-dev" });
    expect(() => new (requireIO(host.io, "Digital"))({ pin: "11", mode: "input" })).toThrow(
      new IOError(
        "io",
        "no GPIO chip labelled pinctrl-bcm2711 or /nonexistent-dev/gpiochip0 found: Raspberry Pi 4 needs its GPIO character device (is this the right board, and may this user open /nonexistent-dev/gpiochip*?)",
      ),
    );
    const generic = parseGenericDefinition({ gpio_chip: "gpiochip4", pins: { LED: 3 } }, "attributes", "my board").definition;
    const mine = await openLinuxIO({ definition: generic, libraries, devRoot: "/nonexistent-dev" });
    expect(() => new (requireIO(mine.io, "Digital"))({ pin: "LED", mode: "output" })).toThrow(/^\/nonexistent-dev\/gpiochip4 not found: my board needs its GPIO character device/);
  });
});

describe("the GPIO backend over stand-in lines", () => {
  const open = async (wires: Array<[number, number]> = [[17, 27]]) => {
    const gpiod = createGpiodStandIn({ gpiochip0: { label: "pinctrl-bcm2711", lines: 58 }, gpiochip1: { label: "raspberrypi-exp-gpio", lines: 8 } }, wires);
    const host = await openLinuxIO({ definition: raspberryPi(), libraries: { gpiod, missing: {} }, devRoot: dev, edgePollMs: 1 });
    return { gpiod, host, Digital: requireIO(host.io, "Digital") };
  };

  it("passes the harness's digital checks on header pins 11 and 13 (GPIO17 and GPIO27) wired together", async () => {
    const { host } = await open();
    const rows = await runConformance({ io: host.io, settleMs: 10 }, { loops: [["11", "13"]], serial: [], i2c: [], pwm: [], bauds: [] });
    const digital = rows.filter((r) => !["pwm", "serial", "i2c"].includes(r.capability));
    expect(digital.filter((r) => r.status !== "pass")).toEqual([]);
    expect(digital).toHaveLength(11);
  });

  it("requests each mode with its libgpiod flags, named svc, and releases on close", async () => {
    const { gpiod, Digital } = await open();
    const cases = [
      ["input", 0, false],
      ["input-pull-up", 1 << 5, false],
      ["input-pull-down", 1 << 4, false],
      ["output", 0, true],
      ["output-open-drain", 1, true],
    ] as const;
    for (const [mode, flags, output] of cases) {
      const d = new Digital({ pin: "GPIO5", mode });
      expect(gpiod.held("gpiochip0", 5)).toMatchObject({ consumer: "svc", flags, output });
      d.close();
      expect(gpiod.held("gpiochip0", 5)).toBeUndefined();
    }
  });

  it("says who holds a busy line, and leaves nothing held when a request fails", async () => {
    const { gpiod, Digital } = await open();
    const held = new Digital({ pin: "BCM22", mode: "output" });
    expect(() => new Digital({ pin: "15", mode: "input" })).toThrow(new IOError("busy", "pin 15 (gpiochip0 line 22) is already in use by svc"));
    held.close();
    expect(gpiod.held("gpiochip0", 22)).toBeUndefined();
    const input = new Digital({ pin: "15", mode: "input" });
    expect(() => input.write(1)).toThrow(new IOError("unsupported", "pin 15 (gpiochip0 line 22) is an input"));
    input.close();
    expect(() => input.read()).toThrow(new IOError("closed", "pin 15 (gpiochip0 line 22) is closed"));
  });

  it("finds a Raspberry Pi 5's chip by its label, wherever the kernel numbered it", async () => {
    const gpiod = createGpiodStandIn({ gpiochip0: { label: "gpio-brcmstb@107d508500", lines: 32 }, gpiochip4: { label: "pinctrl-rp1", lines: 54 } });
    for (const definition of [raspberryPi5(), raspberryPi()]) {
      const host = await openLinuxIO({ definition, libraries: { gpiod, missing: {} }, devRoot: dev });
      const led = new (requireIO(host.io, "Digital"))({ pin: "12", mode: "output" });
      expect(gpiod.held("gpiochip4", 18)).toMatchObject({ output: true });
      led.close();
    }
  });
});

describe("board definitions", () => {
  it("name Raspberry Pi pins by header number and by GPIO name", () => {
    const pi = raspberryPi();
    expect([pi.pins["11"], pi.pins["GPIO17"], pi.pins["BCM17"], pi.pins["io17"], pi.pins["40"], pi.pins["27"]]).toEqual([17, 17, 17, 17, 21, 0]);
    expect(pi.pins["1"]).toBeUndefined();
  });

  it("read the generic form, naming each problem's key", () => {
    const ok = parseGenericDefinition({ gpio_chip: "pinctrl-foo", pins: { LED: 17, BTN: 4 }, pwm_chip: "pwmchip1", pwm_channels: { LED: 0 }, i2c_bus: "2" }, "components[0].attributes");
    expect(ok.issues).toEqual([]);
    expect(ok.definition).toMatchObject({ gpioChips: [{ label: "pinctrl-foo" }], pins: { LED: 17, BTN: 4 }, pwm: [{ chip: { name: "pwmchip1" }, channels: { 17: 0 } }], i2cBus: 2 });
    const bad = parseGenericDefinition({ gpio_chip: 4, pins: { LED: -1, BTN: "x" }, pwm_channels: { FAN: 1 }, i2c_bus: "one" }, "components[0].attributes");
    expect(bad.issues).toEqual([
      { path: "components[0].attributes.gpio_chip", message: "must be a non-empty string" },
      { path: "components[0].attributes.pins.LED", message: "must be a whole number, 0 or more" },
      { path: "components[0].attributes.pins.BTN", message: "must be a whole number, 0 or more" },
      { path: "components[0].attributes.pwm_channels.FAN", message: '"FAN" is not a pin of pins' },
      { path: "components[0].attributes.pwm_chip", message: "required when pwm_channels is given" },
      { path: "components[0].attributes.i2c_bus", message: "must be a bus number, like 1 for /dev/i2c-1" },
    ]);
  });
});

describe("a missing native library", () => {
  it("is offered anyway, and opening it says what to install", async () => {
    const missing = { gpiod: INSTALL_HINTS.gpiod, i2c: INSTALL_HINTS.i2c, serial: INSTALL_HINTS.serial };
    const host = await openLinuxIO({ definition: raspberryPi(), libraries: { missing } });
    expect(() => new (requireIO(host.io, "Digital"))({ pin: "11", mode: "input" })).toThrow(
      new IOError("unsupported", "GPIO needs node-libgpiod, built against Debian libgpiod-dev: apt install libgpiod-dev && node tools/native-addons.mjs build"),
    );
    expect(() => new (requireIO(host.io, "SMBus"))({ bus: 1, address: 0x40, hz: 100_000 })).toThrow(/^I2C needs i2c-bus/);
    expect(() => new (requireIO(host.io, "Serial"))({ port: "/dev/ttyS0", baud: 9600 })).toThrow(/^Serial needs serialport/);
    expect(host.io.Analog).toBeUndefined();
  });
});

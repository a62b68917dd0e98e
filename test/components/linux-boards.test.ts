// The Raspberry Pi and generic Linux board models as svc-server registers them, on the Linux
// backends: GPIO over stand-in kernel lines, hardware PWM on a sysfs tree in a temporary
// directory, and the generic board's pin table read from its attributes.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { Board } from "../../core/components/index.js";
import { INSTALL_HINTS, openLinuxIO, type LinuxIOOptions, type NativeLibraries } from "../../hal/linux/index.js";
import { linuxBoardModels } from "../../targets/linux/server/linux-models.js";
import { createGpiodStandIn } from "../helpers/gpiod-stand-in.js";
import { createPwmTree, type PwmTree } from "../helpers/sysfs-pwm-tree.js";
import { createTestMachine, entry, type TestMachine } from "./test-machine.js";

let machine: TestMachine;
let tree: PwmTree;
const dev = mkdtempSync(join(tmpdir(), "svc-dev-"));
writeFileSync(join(dev, "gpiochip0"), "");
afterEach(async () => {
  await machine?.closeAll();
  tree?.remove();
});
afterAll(() => rmSync(dev, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function linuxMachine(libraries: NativeLibraries) {
  tree = createPwmTree({ pwmchip0: { device: "fe20c000.pwm", exported: [0, 1] } });
  const openIO = (options: LinuxIOOptions) => openLinuxIO({ ...options, libraries, pwmRoot: tree.root, devRoot: dev, edgePollMs: 1 });
  machine = createTestMachine({}, { models: linuxBoardModels({ openIO }) });
  return machine;
}

const genericBoard = {
  gpio_chip: "gpiochip0",
  pins: { LED: 17, BTN: 27, FAN: 18 },
  pwm_chip: "fe20c000.pwm",
  pwm_channels: { FAN: 0 },
};

describe("rdk:builtin:linux-board", () => {
  it("drives and reads its named pins, runs PWM through sysfs and counts edges", async () => {
    const gpiod = createGpiodStandIn({ gpiochip0: { label: "my-soc-gpio", lines: 32 } }, [[17, 27]]);
    linuxMachine({ gpiod, missing: {} });
    const board = await machine.build<Board>(
      entry("board", "b", { ...genericBoard, digital_interrupts: [{ name: "presses", pin: "BTN" }] }, "rdk:builtin:linux-board"),
    );
    await board.setGPIO("LED", true);
    expect(gpiod.held("gpiochip0", 17)).toMatchObject({ consumer: "svc", output: true, value: 1 });
    expect(await board.getGPIO("BTN")).toBe(true);
    await board.setGPIO("LED", false);
    for (let i = 0; i < 3; i++) {
      await sleep(10);
      await board.setGPIO("LED", true);
      await sleep(10);
      await board.setGPIO("LED", false);
    }
    await sleep(10);
    expect(await board.getDigitalInterruptValue("presses")).toBe(3);

    await board.setPWMFrequency("FAN", 25_000);
    await board.setPWM("FAN", 0.5);
    expect(tree.read("pwmchip0", "pwm0/period")).toBe("40000");
    expect(tree.read("pwmchip0", "pwm0/duty_cycle")).toBe("20000");
    expect(await board.pwmFrequency("FAN")).toBe(25_000);
    await expect(board.setPWM("LED", 0.5)).rejects.toThrow("pin LED of board b has no hardware PWM: hardware PWM is on GPIO 18");
    await expect(board.setGPIO("GPIO4", true)).rejects.toThrow('board b has no pin "GPIO4": its pins are LED, BTN, FAN');

    await board.close();
    expect(gpiod.held("gpiochip0", 17)).toBeUndefined();
    expect(gpiod.held("gpiochip0", 27)).toBeUndefined();
    expect(tree.read("pwmchip0", "pwm0/enable")).toBe("0");
  });

  it("validates its pin table with the configuration path, and publishes its keys", () => {
    machine = createTestMachine({}, { models: linuxBoardModels() });
    const issues = machine.validate(
      entry("board", "b", { pins: { LED: "17" }, pwm_channels: { FAN: 0 }, analogs: [{ name: "x" }] }, "rdk:builtin:linux-board"),
      "components[3]",
    ).issues;
    expect(issues.map((i) => `${i.path}: ${i.message}`)).toEqual([
      "components[3].attributes.analogs[0].pin: required",
      "components[3].attributes.pins.LED: must be a whole number, 0 or more",
      'components[3].attributes.pwm_channels.FAN: "FAN" is not a pin of pins',
      "components[3].attributes.pwm_chip: required when pwm_channels is given",
    ]);
    const listed = machine.registry.list().find((m) => m.model === "rdk:builtin:linux-board")!;
    expect(Object.keys((listed.attributesSchema as { properties: object }).properties).sort()).toEqual(
      ["analogs", "digital_interrupts", "gpio_chip", "i2c_bus", "pins", "pwm_channels", "pwm_chip"].sort(),
    );
  });
});

describe("rdk:builtin:pi", () => {
  it("names pins by header number and GPIO name, with hardware PWM on GPIO12/13/18/19", async () => {
    const gpiod = createGpiodStandIn({ gpiochip0: { label: "pinctrl-bcm2711", lines: 58 } });
    linuxMachine({ gpiod, missing: {} });
    const board = await machine.build<Board>(entry("board", "pi", {}, "rdk:builtin:pi"));
    await board.setGPIO("11", true);
    expect(gpiod.held("gpiochip0", 17)).toMatchObject({ output: true, value: 1 });
    await board.setPWM("GPIO13", 0.25);
    expect(tree.read("pwmchip0", "pwm1/enable")).toBe("1");
    // 800 Hz by default; the duty goes through the PWM's 16-bit steps.
    expect(tree.read("pwmchip0", "pwm1/duty_cycle")).toBe(String(Math.round((Math.round(0.25 * 65535) / 65535) * 1_250_000)));
    await expect(board.setPWM("7", 0.5)).rejects.toThrow("pin 7 of Raspberry Pi has no hardware PWM: hardware PWM is on GPIO 12, 13, 18, 19");
  });

  it("says what to install when GPIO's library is missing", async () => {
    linuxMachine({ missing: { gpiod: INSTALL_HINTS.gpiod } });
    const board = await machine.build<Board>(entry("board", "pi", {}, "rdk:builtin:pi"));
    await expect(board.setGPIO("11", true)).rejects.toThrow(INSTALL_HINTS.gpiod);
    await expect(machine.build(entry("board", "pi2", { digital_interrupts: [{ name: "i", pin: "13" }] }, "rdk:builtin:pi"))).rejects.toThrow(
      `digital interrupt "i" (pin 13): ${INSTALL_HINTS.gpiod}`,
    );
  });
});

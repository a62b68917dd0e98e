// Hardware PWM through sysfs, on a tree in a temporary directory: period and duty in
// nanoseconds, enable and disable, the chip found by its platform device on a Raspberry Pi 4 or
// 5, and clear errors for a pin without PWM or a chip that is not there.
import { afterEach, describe, expect, it } from "vitest";
import { IOError, requireIO } from "../../hal/io.js";
import { openLinuxIO, parseGenericDefinition, raspberryPi, raspberryPi5 } from "../../hal/linux/index.js";
import { runConformance } from "../../tools/hal-conformance/conformance.js";
import { createPwmTree, type PwmTree } from "../helpers/sysfs-pwm-tree.js";

let tree: PwmTree | undefined;
afterEach(() => tree?.remove());
const noLibraries = { missing: {} };

describe("sysfs PWM", () => {
  it("sets period and duty in nanoseconds, enables, and disables on close", async () => {
    tree = createPwmTree({ pwmchip0: { device: "fe20c000.pwm", exported: [0, 1] } });
    const host = await openLinuxIO({ definition: raspberryPi(), pwmRoot: tree.root, libraries: noLibraries });
    const pwm = new (requireIO(host.io, "PWM"))({ pin: "32", hz: 1000, resolution: 10 });
    expect(tree.read("pwmchip0", "pwm0/period")).toBe("1000000");
    expect(tree.read("pwmchip0", "pwm0/enable")).toBe("1");
    pwm.write(1023);
    expect(tree.read("pwmchip0", "pwm0/duty_cycle")).toBe("1000000");
    pwm.write(256);
    expect(tree.read("pwmchip0", "pwm0/duty_cycle")).toBe(String(Math.round((256 / 1023) * 1e6)));
    expect(host.readPwm("GPIO12")).toEqual({ hz: 1000, duty: Math.round((256 / 1023) * 1e6) / 1e6, enabled: true });
    expect(() => pwm.write(1024)).toThrow(/0 to 1023, got 1024/);
    expect(() => new (requireIO(host.io, "PWM"))({ pin: "GPIO12", hz: 50 })).toThrow(new IOError("busy", `pin GPIO12: PWM channel 0 of ${tree.root}/pwmchip0 is already in use`));
    pwm.close();
    expect(tree.read("pwmchip0", "pwm0/enable")).toBe("0");
    // A channel exported before it was opened stays exported.
    expect(tree.read("pwmchip0", "unexport")).toBe("");
    // Header pin 33 is GPIO13, channel 1 on a Pi 4.
    new (requireIO(host.io, "PWM"))({ pin: "33", hz: 50 }).close();
    expect(tree.read("pwmchip0", "pwm1/period")).toBe("20000000");
  });

  it("passes the harness's PWM checks, read back from sysfs", async () => {
    tree = createPwmTree({ pwmchip2: { device: "1f00098000.pwm", exported: [2] } });
    const host = await openLinuxIO({ definition: raspberryPi(), pwmRoot: tree.root, libraries: noLibraries });
    const rows = await runConformance({ io: host.io, readPwm: (pin) => host.readPwm(pin), settleMs: 0 }, { loops: [], serial: [], i2c: [], pwm: ["12"], bauds: [] });
    expect(rows.filter((r) => r.capability.startsWith("pwm 12"))).toEqual([
      { capability: "pwm 12 1000 Hz 25%", status: "pass", detail: "read back 1000.0 Hz, duty 0.250" },
      { capability: "pwm 12 50 Hz 75%", status: "pass", detail: "read back 50.0 Hz, duty 0.750" },
    ]);
  });

  it("exports a channel it needs and gives it back when it cannot be used", async () => {
    tree = createPwmTree({ pwmchip0: { device: "1f00098000.pwm", exported: [] } });
    const host = await openLinuxIO({ definition: raspberryPi5(), pwmRoot: tree.root, libraries: noLibraries });
    // Header pin 12 is GPIO18, channel 2 of the RP1's PWM. This tree has no kernel to make pwm2.
    expect(() => new (requireIO(host.io, "PWM"))({ pin: "12", hz: 1000 })).toThrow(new IOError("io", `${tree.root}/pwmchip0/pwm2 did not appear after export`));
    expect(tree.read("pwmchip0", "export")).toBe("2");
    expect(tree.read("pwmchip0", "unexport")).toBe("2");
  });

  it("says which pins have PWM, and where the chip was looked for", async () => {
    tree = createPwmTree({});
    const pi = await openLinuxIO({ definition: raspberryPi(), pwmRoot: tree.root, libraries: noLibraries });
    const PWM = requireIO(pi.io, "PWM");
    expect(() => new PWM({ pin: "11", hz: 1000 })).toThrow(new IOError("unsupported", "pin 11 of Raspberry Pi has no hardware PWM: hardware PWM is on GPIO 12, 13, 18, 19"));
    expect(() => new PWM({ pin: "41", hz: 1000 })).toThrow(
      new IOError("invalid", 'Raspberry Pi has no pin "41": use a header pin number (3 to 40) or a GPIO name (GPIO0 to GPIO27)'),
    );
    expect(() => new PWM({ pin: "32", hz: 1000 })).toThrow(
      `a chip of 1f00098000.pwm under ${tree.root} or a chip of fe20c000.pwm under ${tree.root} not found: enable Raspberry Pi's hardware PWM (on a Pi: dtoverlay=pwm-2chan in config.txt)`,
    );
    const generic = parseGenericDefinition({ pins: { LED: 5 }, pwm_chip: "pwmchip3", pwm_channels: { LED: 1 } }, "board.json", "my board").definition;
    const mine = await openLinuxIO({ definition: generic, pwmRoot: tree.root, libraries: noLibraries });
    expect(() => new (requireIO(mine.io, "PWM"))({ pin: "LED", hz: 1000 })).toThrow(
      `${tree.root}/pwmchip3 not found: enable my board's hardware PWM (on a Pi: dtoverlay=pwm-2chan in config.txt)`,
    );
  });
});

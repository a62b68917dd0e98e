// I2C on Linux through the real i2c-bus library against the kernel's i2c-stub, in a small qemu
// guest (this machine's kernel has no I2C bus to test on): the harness's I2C checks through its
// command, the INA219 power sensor, and a Linux board's analog reader on an ADS1115. The stub
// holds three chips: 0x50 as scratch registers, 0x40 as the INA219, 0x48 as the ADS1115.
// qemu runs the guest under software emulation (TCG), so it needs no KVM: a guest that cannot
// start fails the test with the reason.
import { describe, expect, it } from "vitest";
import { bundleForGuest, findGuestKernel, runInGuest, type GuestRun } from "./qemu-guest.js";

const MARKER = "SVC-RESULT";

describe("I2C on i2c-bus against i2c-stub in a qemu guest", () => {
  it("passes the harness's I2C checks and reads the INA219 and ADS1115 drivers' parts", async () => {
    const kernel = findGuestKernel();
    if (typeof kernel === "string") throw new Error(`the qemu guest cannot run here: ${kernel}`);
    const script = await bundleForGuest("test/hal/guest/i2c-guest.ts");
    let run: GuestRun;
    try {
      run = await runInGuest({
        kernel,
        modprobe: ["i2c-stub chip_addr=0x40,0x48,0x50", "i2c-dev"],
        command: `${process.execPath} ${script.file}`,
        marker: MARKER,
        timeoutMs: 120_000,
      });
    } finally {
      script.remove();
    }
    const results = Object.fromEntries((run.results as Array<{ name: string; value: unknown }>).map((r) => [r.name, r.value]));
    expect(results.error, run.console.slice(-3000)).toBeUndefined();
    expect(results.done, run.console.slice(-3000)).toBe(true);

    const harness = results.harness as { code: number; lines: string[] };
    expect(harness.lines.filter((l) => /^(smbus|i2c) /.test(l))).toEqual([
      expect.stringMatching(/^smbus byte 0x50 on bus \d+ +pass$/),
      expect.stringMatching(/^smbus word 0x50 on bus \d+ +pass$/),
      expect.stringMatching(/^smbus block 0x50 on bus \d+ +pass$/),
      expect.stringMatching(/^i2c write\/read 0x50 on bus \d+ +pass$/),
    ]);
    expect(harness.lines.at(-1)).toBe("4 passed, 0 failed, 3 skipped");
    expect(harness.code).toBe(0);

    // 12.0 V on the bus, 25 mV across a 0.1 ohm shunt; the driver wrote its configuration.
    const ina = results.ina219 as { readings: Record<string, number | boolean>; config: number };
    expect(ina.readings.voltage).toBeCloseTo(12, 6);
    expect(ina.readings.current).toBeCloseTo(0.25, 6);
    expect(ina.readings.power).toBeCloseTo(3, 6);
    expect(ina.readings.is_ac).toBe(false);
    expect(ina.config).toBe(0x399f);

    // Half of the 4.096 V full scale, read single-shot from input 1.
    const ads = results.ads1115 as { reading: Record<string, number>; config: number };
    expect(ads.reading).toEqual({ value: 16384, minRange: 0, maxRange: 4.096, stepSize: 4.096 / 32768 });
    expect((ads.config >> 12) & 0b111).toBe(0b101);
    expect(ads.config & 0x100).toBe(0x100);
  }, 150_000);
});

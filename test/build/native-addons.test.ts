// The native addons the README promises are built and load after `npm install`: the GPIO and I2C
// backends, serial, and the XS engine the MCU tests run in. An addon that did not build fails
// here by name, with what it needs, instead of its backend quietly saying "unsupported".
import { describe, expect, it } from "vitest";
import { ADDONS, whyNotLoadable } from "../../tools/native-addons.mjs";

describe("native addons", () => {
  it.each(ADDONS.map((a) => [a.name, a] as const))("%s is built and loads", (_name, addon) => {
    expect(whyNotLoadable(addon), `${addon.name} needs ${addon.system}; run npm install again`).toBeUndefined();
  });

  it("the hardware backends load their libraries", async () => {
    const { loadNativeLibraries } = await import("../../hal/linux/native.js");
    const libraries = await loadNativeLibraries();
    expect(libraries.missing).toEqual({});
    expect(typeof libraries.gpiod?.Chip).toBe("function");
    expect(typeof libraries.i2c?.openSync).toBe("function");
    expect(typeof libraries.serial?.SerialPort).toBe("function");
  });
});

// svc-mcu built for the Raspberry Pi Pico W by the Moddable SDK and the pico-sdk: the preloaded
// bundle and device/main.js link (the manifest maps Moddable's lwip sockets for the Pico, which
// has no ECMA-419 sockets of its own), the .uf2 a user copies to the board is written, and the
// image fits the 2 MB flash less the preferences and the partition that keeps the configuration.
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FLASH_BUDGET, flashUse } from "../../tools/firmware/flash-budget.mjs";
import { buildFirmware, FIRMWARE_COMMANDS } from "./mcsim-host.js";

const dir = mkdtempSync(join(tmpdir(), "svc-firmware-pico-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the Pico W build of svc-mcu", () => {
  it("links into a .uf2 whose image fits the flash beside the configuration's partition", async () => {
    if (!process.env.PICO_SDK_PATH) throw new Error("$PICO_SDK_PATH must name the pico-sdk 2.2.0 (docs/mcu.md, Building firmware)");
    const output = await buildFirmware(FIRMWARE_COMMANDS.picoW, ["--out", dir]);
    const bin = join(dir, "bin/pico/pico_w/release/mcu");
    expect(output).toContain(join(bin, "xs_pico.uf2"));
    expect(output).not.toMatch(/module "embedded:io\/socket\/[a-z]+" not found/);
    expect(existsSync(join(bin, "xs_pico.uf2"))).toBe(true);
    const use = flashUse(join(bin, "xs_pico.elf"));
    console.log(`Pico W image: ${use.image} bytes of ${FLASH_BUDGET} (text ${use.text}, data ${use.data}, bss ${use.bss}); uf2 ${statSync(join(bin, "xs_pico.uf2")).size} bytes`);
    expect(use.image).toBeGreaterThan(0);
    expect(use.fits).toBe(true);
  });
});

// What the host build of svc-mcu takes, from Moddable's own instrumentation (the instrumented
// build prints its figures each second): booting, reconfigured to 20 sensors, serving calls. The
// figures are printed for docs/mcu.md (Memory); the test holds the stack to the manifest's, which
// cannot grow on a device, the build to its boot without an abort, and what XS holds for 20
// sensors (heap slots at a 32-bit device's 16 bytes, plus the chunks as this 64-bit host counts
// them, an upper bound) to the goal of 256 KB.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialSdk } from "../helpers/sdk-robot.js";
import { buildHostFirmware, freePort, root, startMcsim, startXvfb, type Display, type Mcsim } from "./mcsim-host.js";

const twenty = { components: Array.from({ length: 20 }, (_, i) => ({ name: `s${i}`, api: "rdk:component:sensor", model: "fake", attributes: { readings: { v: i } } })) };
const manifest = JSON.parse(readFileSync(join(root, "targets/mcu/manifest.json"), "utf8")) as { creation: { stack: number } };
/** Bytes a slot takes on this 64-bit host; a 32-bit device's slots take 16. */
const HOST_SLOT = 32;

let dir: string;
let port: number;
let display: Display;
let device: Mcsim;

/** The peaks over the next few samples (one a second). */
async function peaksOver(ms: number): Promise<Record<string, number>> {
  device.resetPeaks();
  await new Promise((resolve) => setTimeout(resolve, ms));
  return { ...device.peaks };
}

const summary = (p: Record<string, number>) =>
  `stack ${p["Stack used"]! / HOST_SLOT} slots, heap ${p["Slot available"]! / HOST_SLOT} slots (${p["Slot used"]! / HOST_SLOT} used), chunks ${p["Chunk available"]} bytes (${p["Chunk used"]} used)`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "svc-firmware-memory-"));
  port = await freePort();
  const so = await buildHostFirmware(["--out", join(dir, "build"), "--instrument", `svcPort=${port}`]);
  display = await startXvfb();
  device = startMcsim(so, display, join(dir, "home"));
  await device.waitFor(/svc\.config: configuration loaded/);
}, 600_000);

afterAll(async () => {
  await device?.close();
  await display?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("memory of the host build", () => {
  it("boots, takes 20 sensors and serves them within the manifest's stack", async () => {
    // Booting is over by the first "configuration loaded" line; its peaks are in the samples so far.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const boot = { ...device.peaks };
    const response = await fetch(`http://127.0.0.1:${port}/svc/config`, { method: "PUT", body: JSON.stringify(twenty) });
    expect(await response.json()).toMatchObject({ outcome: "applied" });
    const reconfigured = await peaksOver(2_500);
    const robot = await dialSdk(`http://localhost:${port}`);
    try {
      for (let i = 0; i < 20; i++) expect(await new VIAM.SensorClient(robot, `s${i}`).getReadings()).toEqual({ v: i });
    } finally {
      await robot.disconnect();
    }
    const serving = await peaksOver(2_500);
    const estimate = (p: Record<string, number>) => Math.round((((p["Slot available"] ?? 0) / HOST_SLOT) * 16 + (p["Chunk available"] ?? 0)) / 1024);
    console.log(`host build, built-in configuration: ${summary(boot)}`);
    console.log(`host build, 20 sensors after reconfiguring: ${summary(reconfigured)}`);
    console.log(`host build, 20 sensors serving: ${summary(serving)}`);
    console.log(`32-bit estimate for 20 sensors (slots x 16 + host chunks): ${estimate(serving)} KB (goal < 256 KB)`);
    for (const p of [boot, reconfigured, serving]) expect(p["Stack used"]! / HOST_SLOT).toBeLessThan(manifest.creation.stack);
    expect(estimate(serving)).toBeLessThan(256);
    expect(device.lines.join("\n")).not.toMatch(/XS abort|stack overflow/);
  });
});

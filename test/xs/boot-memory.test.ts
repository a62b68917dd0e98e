// What the MCU keeps in RAM once it has booted 20 resources, counted by XS itself after a
// collection (so the same on every run): live slots at 16 bytes, a slot's size on the 32-bit
// devices the goal is about, and the live chunks (strings, array storage, tables, the code each
// closure made at run time copies) in this 64-bit host's bytes, an upper bound for a device.
// Both beyond the loaded bundle, which a device preloads into flash. docs/mcu.md (Memory) gives
// the goal: under 256 KB. Reconfiguring back and forth must not grow it, once the first round has
// met every name and path (a minute passes between configurations, so log de-duplication windows
// close as they do on a device).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMAND_CONFIG, decodeReply, encodeCommand } from "../../targets/mcu/host-protocol.js";
import { buildTargetBundle } from "../../tools/mcu-shim/build-bundle.mjs";
import { moduleAsScript, XsWorker } from "../../tools/xs/xs-worker.js";

const GOAL_BYTES = 256 * 1024;
const SLOT_BYTES_ON_DEVICE = 16;

const sensors = (count: number) => ({
  components: Array.from({ length: count }, (_, i) => ({ name: `s${i}`, api: "rdk:component:sensor", model: "fake", attributes: { readings: { v: i } } })),
});
// The firmware's own configuration (targets/mcu/device/machine.json).
const builtIn = {
  components: [
    { name: "board", api: "rdk:component:board", model: "fake", attributes: {} },
    { name: "temp", api: "rdk:component:sensor", model: "fake", attributes: { readings: { celsius: 21.5 } } },
  ],
};

let worker: XsWorker;
let loaded: { slots: number; chunks: number };
let id = 0;

async function kept(): Promise<{ slots: number; chunks: number }> {
  const slots = (await worker.evaluate("gc()")).meters.currentHeapCount;
  return { slots, chunks: await worker.liveChunkBytes() };
}

/** Bytes a 32-bit device keeps beyond the loaded bundle (chunks as this host counts them). */
async function deviceBytes(): Promise<number> {
  const now = await kept();
  return (now.slots - loaded.slots) * SLOT_BYTES_ON_DEVICE + (now.chunks - loaded.chunks);
}

async function apply(config: object): Promise<{ outcome?: string; added?: string[] }> {
  const answer = await worker.commandBytes(encodeCommand({ kind: COMMAND_CONFIG, now: 1_800_000_000_000 + id * 60_000, id: ++id, text: JSON.stringify(config) }));
  return JSON.parse(Buffer.from(decodeReply(answer.reply).finished[0]?.body ?? []).toString() || "{}");
}

beforeAll(async () => {
  worker = new XsWorker();
  await worker.evaluate(moduleAsScript(await buildTargetBundle(), "svcMcu"));
  await worker.evaluate("globalThis.svcMcu.installXsnapHost({});");
  loaded = await kept();
}, 60_000);

afterAll(async () => {
  await worker?.close();
});

describe("the MCU's RAM after booting", () => {
  it("keeps 20 resources in less than 256 KB of a 32-bit device's RAM, and no more after reconfiguring back and forth", async () => {
    expect(await apply(sensors(20))).toMatchObject({ outcome: "applied", added: expect.any(Array) });
    const first = await deviceBytes();
    console.log(`XS RAM kept after booting 20 sensors (16-byte slots + host chunk bytes): ${Math.round(first / 1024)} KB (goal < 256 KB)`);
    expect(first).toBeLessThan(GOAL_BYTES);

    const round = async () => {
      expect(await apply(builtIn)).toMatchObject({ outcome: "applied" });
      expect(await apply(sensors(20))).toMatchObject({ outcome: "applied" });
    };
    await round();
    const settled = await deviceBytes();
    expect(settled).toBeLessThan(GOAL_BYTES);
    for (let i = 0; i < 3; i++) await round();
    expect((await deviceBytes()) - settled).toBeLessThan(1024);
  });
});

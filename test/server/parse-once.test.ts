// A configuration is parsed once per load, from reading it to running it (test/mcu/parse-once
// for the MCU): svc-server's start settings and the machine's first load share one parse, an edit the file watcher sees is handed
// to the machine as text and parsed there once, and the document as written (for issue order and
// places in the file) is read once more at most, only when something asks for it.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createCollectingSink, createLogEngine, readMachineConfig } from "../../core/index.js";
import { createNodeClock } from "../../targets/linux/logging/index.js";
import { createLinuxMachine } from "../../targets/linux/server/linux-machine.js";
import { serve, type RunningServer } from "../../targets/linux/server/serve.js";
import { screenUntrusted } from "../../targets/linux/server/untrusted-screen.js";
import { eventually } from "../helpers/eventually.js";

const sensor = (name: string, celsius: number) => ({ name, api: "rdk:component:sensor", model: "fake", attributes: { readings: { celsius } } });

let dir: string | undefined;
let server: RunningServer | undefined;
const savedTmpdir = process.env.TMPDIR;
afterEach(async () => {
  vi.restoreAllMocks();
  await server?.stop();
  server = undefined;
  process.env.TMPDIR = savedTmpdir;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** How many times JSON.parse has been handed exactly `text` since the spy was set. */
function parsesOf(parse: { mock: { calls: unknown[][] } }, text: string): number {
  return parse.mock.calls.filter(([argument]) => argument === text).length;
}

describe("one load parses the configuration text once", () => {
  it("in svc-server: the start settings and the first load share one parse, and an edit of the file is parsed once", async () => {
    dir = mkdtempSync(join(tmpdir(), "svc-parse-once-"));
    // The server's module folder goes in this test's folder.
    process.env.TMPDIR = dir;
    const file = join(dir, "machine.json");
    const first = JSON.stringify({ network: { bind_address: "localhost:0" }, components: [sensor("temp", 20)] });
    writeFileSync(file, first);
    const parse = vi.spyOn(JSON, "parse");

    const reading = readMachineConfig(first);
    const logEngine = createLogEngine({ clock: createNodeClock(), sink: createCollectingSink() });
    server = await serve({ logEngine, version: "0.1.0", initial: { reading, config: reading.config!, origin: file, file }, requestShutdown() {} });
    expect(await server.firstLoad).toMatchObject({ outcome: "applied" });
    expect(parsesOf(parse, first)).toBe(1);

    const edit = JSON.stringify({ network: { bind_address: "localhost:0" }, components: [sensor("temp", 25)] });
    writeFileSync(file, edit);
    const running = server.machine;
    await eventually(() => (running.current()?.config.components[0]?.attributes.readings as { celsius: number }).celsius === 25 || undefined, "the edit applied");
    expect(parsesOf(parse, edit)).toBe(1);
  });

  it("reads the document as written once more at most, shared by the issues' order and the -untrusted-env screen", async () => {
    const machine = createLinuxMachine({ logEngine: createLogEngine({ clock: createNodeClock(), sink: createCollectingSink() }), clock: createNodeClock(), screen: screenUntrusted });
    const text = JSON.stringify({
      components: [sensor("temp", 20), { name: "bad name", api: "rdk:component:sensor", model: "fake" }, { name: "runner", api: "rdk:component:generic", model: "rdk:builtin:process", attributes: { name: "/bin/true" } }],
      unknown_key: 1,
    });
    const parse = vi.spyOn(JSON, "parse");
    expect(await machine.load(text, "machine.json")).toMatchObject({ outcome: "applied" });
    expect(parsesOf(parse, text)).toBe(2);
    expect(machine.current()?.issues.map((i) => i.path)).toEqual(["components[1].name", "unknown_key", "components[2]"]);
    await machine.close();
  });
});

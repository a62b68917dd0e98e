// The guide "Writing a module" (docs/modules.md) runs as written, in a fresh home folder: its
// first command makes the module, the module it shows is the file that command made, and its
// second command starts svc-server with the module's sensor answering the official SDK.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guideBlocks } from "../helpers/guide.js";
import { makeGuideHome, runBlock, startBlock } from "../helpers/guide-shell.js";
import { claimPort } from "../helpers/port-claim.js";
import { dialSdk } from "../helpers/sdk-robot.js";
import { eventually } from "../helpers/eventually.js";

const home = makeGuideHome("svc-guide-module-");
let givePortBack: (() => Promise<void>) | undefined;
beforeAll(async () => {
  givePortBack = await claimPort(8080);
}, 700_000);
afterAll(async () => {
  await givePortBack?.();
  home.remove();
});

describe('the guide "Writing a module"', () => {
  const blocks = guideBlocks("docs/modules.md", "Writing a module");
  const commands = blocks.filter((b) => b.lang === "sh");
  const module = blocks.find((b) => b.lang === "js");

  it("shows two commands and the module's code", () => {
    expect(blocks.map((b) => b.lang)).toEqual(["sh", "sh", "js"]);
    expect(commands).toHaveLength(2);
    expect(module).toBeDefined();
  });

  it("makes the module it shows, executable, with the SDK and a configuration beside it", () => {
    const made = runBlock(commands[0]!.text, home);
    expect(made.code, made.stderr).toBe(0);
    const dir = join(home.dir, "hello-module");
    expect(readFileSync(join(dir, "hello-module.mjs"), "utf8")).toBe(module!.text);
    expect(statSync(join(dir, "hello-module.mjs")).mode & 0o111).toBe(0o111);
    expect(statSync(join(dir, "svc-module-sdk.mjs")).isFile()).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, "machine.json"), "utf8")).modules[0].executable_path).toBe(join(dir, "hello-module.mjs"));
  });

  it("runs svc-server with the module, whose sensor answers the SDK", async () => {
    const server = startBlock(commands[1]!.text, home);
    try {
      await eventually(() => (/serving http/.test(server.output()) ? true : undefined), "svc-server serving");
      const robot = await dialSdk("http://localhost:8080");
      try {
        const sensor = new VIAM.SensorClient(robot, "greeter");
        const readings = await eventually(() => sensor.getReadings().catch(() => undefined), "the module's sensor");
        expect(readings).toEqual({ greeting: "hello from a module", readings: 1 });
      } finally {
        await robot.disconnect();
      }
    } finally {
      await server.stop();
    }
    expect(server.output()).not.toMatch(/EACCES|ERR_UNKNOWN_FILE_EXTENSION/);
  });
});

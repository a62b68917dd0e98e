// Commands the pages show with what they print run as written, from the checkout, and print it:
// svc-server checking a configuration (docs/server.md) and the conformance harness on the
// simulated board (docs/hardware.md), whose usage is also the one the program prints.
import { afterAll, describe, expect, it } from "vitest";
import { guideBlocks, shownOutput } from "../helpers/guide.js";
import { makeGuideHome, runBlock } from "../helpers/guide-shell.js";

const home = makeGuideHome("svc-guide-outputs-");
afterAll(() => home.remove());

describe("docs/server.md, -validate", () => {
  const blocks = guideBlocks("docs/server.md", "Checking a configuration: `-validate`");

  it("prints what is shown and exits 0", () => {
    expect(blocks.map((b) => b.lang)).toEqual(["sh", "text"]);
    const result = runBlock(blocks[0]!.text, home);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(shownOutput(blocks, 0));
  });
});

describe("docs/hardware.md, the conformance harness", () => {
  const blocks = guideBlocks("docs/hardware.md", "The conformance harness: svc-hal-conformance");

  it("shows the usage the program prints", () => {
    expect(blocks.map((b) => b.lang)).toEqual(["text", "sh", "text"]);
    const help = runBlock("node dist/linux/svc-hal-conformance.mjs --help", home);
    const usage = help.stdout + help.stderr;
    expect(usage.startsWith(blocks[0]!.text), usage).toBe(true);
  });

  it("passes every check on the simulated board, ending as shown", () => {
    const result = runBlock(blocks[1]!.text, home);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trimEnd().split("\n").pop()).toBe(shownOutput(blocks, 1).trim());
  });
});

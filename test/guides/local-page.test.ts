// docs/local-page.md runs as written, in a fresh home folder: the machine with an API key starts
// from the page's configuration, its page and files are served, and each curl prints what the
// page shows (the question asked before logging in, the logs refused without a token, a
// configuration refused with its problem at its path, the file left as it was).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually.js";
import { guideBlocks, shownOutput } from "../helpers/guide.js";
import { makeGuideHome, runBlock, startBlock, type RunningBlock } from "../helpers/guide-shell.js";
import { claimPort } from "../helpers/port-claim.js";
import { requireTools } from "../helpers/system-tools.js";

const home = makeGuideHome("svc-guide-page-");
let givePortBack: (() => Promise<void>) | undefined;
let server: RunningBlock | undefined;
const blocks = guideBlocks("docs/local-page.md", "The endpoints");
const commands = blocks.filter((b) => b.lang === "sh");

beforeAll(async () => {
  requireTools("curl");
  givePortBack = await claimPort(8080);
}, 700_000);
afterAll(async () => {
  await server?.stop();
  await givePortBack?.();
  home.remove();
});

describe("docs/local-page.md", () => {
  it("has the steps this test runs, in order", () => {
    expect(blocks.map((b) => b.lang)).toEqual(["sh", "sh", "text", "sh", "text", "sh", "text"]);
  });

  it("starts the machine of the page, whose page and files are served", async () => {
    server = startBlock(commands[0]!.text, home);
    const page = await eventually(async () => {
      const answer = await fetch("http://localhost:8080/").catch(() => undefined);
      return answer?.ok ? answer.text() : undefined;
    }, "the control page");
    expect(page).toContain('<script type="module" src="/page/app.js"></script>');
    expect((await fetch("http://localhost:8080/page/app.js")).status).toBe(200);
  });

  it("prints what is shown for each command", () => {
    const before = readFileSync(join(home.dir, "svc-page/machine.json"), "utf8");
    for (const command of commands.slice(1)) {
      const result = runBlock(command.text, home);
      expect(result.stdout.trim(), command.text).toBe(shownOutput(blocks, blocks.indexOf(command)).trim());
    }
    expect(readFileSync(join(home.dir, "svc-page/machine.json"), "utf8")).toBe(before);
  });
});

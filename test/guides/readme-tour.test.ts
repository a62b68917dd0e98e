// The README's five-minute tour runs as written, in a fresh home folder, one step after another as
// a reader takes them: the simulated machine of `npm start` answers curl (and, from docs/api.md,
// the Connect calls shown there and the official SDK's snippet), a configuration of one's own
// runs and follows an edit of its file, the module step is the module guide's, and the agent
// installs svc-server from a release built on the spot and runs it with that configuration.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually.js";
import { guideBlocks, repositoryRoot, shownOutput, type GuideBlock } from "../helpers/guide.js";
import { makeGuideHome, runBlock, startBlock, type RunningBlock } from "../helpers/guide-shell.js";
import { claimPort } from "../helpers/port-claim.js";
import { requireTools } from "../helpers/system-tools.js";

const home = makeGuideHome("svc-guide-tour-");
let givePortBack: (() => Promise<void>) | undefined;
let running: RunningBlock | undefined;

beforeAll(async () => {
  requireTools("curl");
  givePortBack = await claimPort(8080);
}, 700_000);
afterAll(async () => {
  await running?.stop();
  await givePortBack?.();
  home.remove();
});

const tour = guideBlocks("README.md", "A five-minute tour");
const readme = readFileSync(join(repositoryRoot, "README.md"), "utf8");
const commandsOf = (blocks: GuideBlock[]) => blocks.filter((b) => b.lang === "sh");

/** Runs `block` until it prints `expected` (the server may still be starting, or taking an edit). */
const answers = (block: GuideBlock, expected: string, what: string) =>
  eventually(() => {
    const result = runBlock(block.text, home);
    return result.stdout.trim() === expected.trim() ? true : undefined;
  }, what);

async function start(block: GuideBlock): Promise<RunningBlock> {
  await running?.stop();
  running = startBlock(block.text, home);
  return running;
}

describe("the README's tour", () => {
  it("has the steps this test runs, in order", () => {
    expect(tour.map((b) => b.lang)).toEqual(["sh", "text", "sh", "sh", "text", "sh", "sh"]);
  });

  it("reads the simulated machine's sensor with curl, as shown", async () => {
    // `npm start` is the build and then svc-server; the build is the suite's own first step.
    const startScript = JSON.parse(readFileSync(join(repositoryRoot, "package.json"), "utf8")).scripts.start as string;
    const [build, server] = startScript.split(" && ");
    expect(build).toBe("node tools/build/index.mjs --quiet");
    expect(server).toBe("node dist/linux/svc-server.mjs");
    await start({ lang: "sh", tags: [], text: server! });
    await answers(tour[0]!, shownOutput(tour, 0), "the simulated machine's sensor through curl");
  });

  describe("docs/api.md on the same machine", () => {
    // Each section by its literal heading: test/docs finds the sections a guide test runs that way.
    const sections = {
      Protocols: guideBlocks("docs/api.md", "Protocols"),
      "Errors and codes": guideBlocks("docs/api.md", "Errors and codes"),
    };
    for (const [heading, blocks] of Object.entries(sections)) {
      it(`${heading}: each command prints what is shown`, () => {
        const commands = commandsOf(blocks);
        expect(commands.length).toBeGreaterThan(0);
        for (const command of commands) {
          const result = runBlock(command.text, home);
          expect(result.stdout.trim(), command.text).toBe(shownOutput(blocks, blocks.indexOf(command)).trim());
        }
      });
    }

    it("Reading a sensor with the SDK: the snippet prints the readings shown, and exits", () => {
      const blocks = guideBlocks("docs/api.md", "Reading a sensor with the SDK");
      expect(blocks.map((b) => b.lang)).toEqual(["js", "text"]);
      // Saved as read-sensor.mjs in the checkout: resolved from there, as stdin of node is.
      const result = runBlock("", home, { command: [process.execPath, "--input-type=module"], input: blocks[0]!.text });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout.trim()).toBe(blocks[1]!.text.trim());
    });
  });

  it("runs a configuration of one's own and follows an edit of its file", async () => {
    const server = await start(tour[2]!);
    await answers(tour[0]!, '{"readings":{"celsius":21.5}}', "the new machine's sensor");
    const edit = runBlock(tour[3]!.text, home);
    expect(edit.code, edit.stderr).toBe(0);
    await answers(tour[0]!, shownOutput(tour, 3), "the edited reading");
    const said = /The log says `([^`]+)`/.exec(readme)?.[1];
    expect(said).toBeDefined();
    // Off a terminal the log is JSON lines: the message is the line's `msg`.
    const messages = server.output().split("\n").flatMap((line) => {
      try {
        return [(JSON.parse(line) as { msg?: string }).msg];
      } catch {
        return [];
      }
    });
    expect(messages).toContain(said);
  });

  it("keeps the machine running as it was through a broken edit, and says why", async () => {
    expect(readme).toContain("A broken edit (a typo, a missing brace) leaves the machine running as it was and says why");
    const file = join(home.dir, "svc-tour/machine.json");
    const good = readFileSync(file, "utf8");
    writeFileSync(file, good.replace(/\}\s*$/, ""));
    await eventually(() => (/configuration refused; the machine keeps running as it was/.test(running!.output()) ? true : undefined), "the refusal in the log");
    await answers(tour[0]!, shownOutput(tour, 3), "the reading as before the broken edit");
    writeFileSync(file, good);
  });

  it("writes a module with the commands of docs/modules.md, which its own guide test runs", () => {
    const guide = commandsOf(guideBlocks("docs/modules.md", "Writing a module")).map((b) => b.text);
    expect(tour[5]!.text).toBe(guide.join(""));
  });

  it("runs the agent, which installs svc-server from the release and runs the configuration", async () => {
    await running?.stop();
    const agent = await start(tour[6]!);
    await eventually(
      () => {
        const result = runBlock(tour[0]!.text, home);
        return result.stdout.trim() === '{"readings":{"celsius":23}}' ? true : undefined;
      },
      "the agent's svc-server answering",
      { timeoutMs: 180_000 },
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n--- agent output (end) ---\n${agent.output().slice(-4000)}`);
    });
    expect(existsSync(join(home.dir, "svc-device/opt/svc/svc-server/current/svc-server"))).toBe(true);
    const pidFile = join(home.dir, "svc-device/var/lib/svc-agent/svc-server.pid");
    const pid = Number(readFileSync(pidFile, "utf8"));
    await agent.stop();
    // The agent stops its server (a process group of its own) on the way out.
    await eventually(() => (existsSync(`/proc/${pid}`) ? undefined : true), "the agent's svc-server to stop");
  }, 240_000);
});

// docs/agent.md "Trying it on one machine" runs as written, in a fresh home folder standing in
// for the device: a release is built, tools/install.sh installs the agent from it under the root
// folder (writing the systemd unit there and running no system command), and the installed agent
// installs svc-server from the same release and runs it with the configuration written for it.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually.js";
import { guideBlocks, shownOutput } from "../helpers/guide.js";
import { makeGuideHome, runBlock, startBlock, type RunningBlock } from "../helpers/guide-shell.js";
import { claimPort } from "../helpers/port-claim.js";
import { requireTools } from "../helpers/system-tools.js";

const home = makeGuideHome("svc-guide-agent-");
let givePortBack: (() => Promise<void>) | undefined;
let agent: RunningBlock | undefined;

beforeAll(async () => {
  requireTools("curl");
  givePortBack = await claimPort(8080);
}, 700_000);
afterAll(async () => {
  await agent?.stop();
  await givePortBack?.();
  home.remove();
});

describe('docs/agent.md, "Trying it on one machine"', () => {
  const blocks = guideBlocks("docs/agent.md", "Trying it on one machine");
  const device = (path: string) => join(home.dir, "svc-device", path);

  it("has the steps this test runs, in order", () => {
    expect(blocks.map((b) => b.lang)).toEqual(["sh", "sh", "sh", "text"]);
  });

  it("builds a release and installs the agent from it under the root folder", () => {
    const installed = runBlock(blocks[0]!.text, home);
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stderr).toMatch(/svc-agent \S+ is installed/);
    expect(installed.stderr).toContain("not run under the root prefix");
    expect(existsSync(device("opt/svc/agent/current/svc-agent"))).toBe(true);
    expect(readFileSync(device("etc/systemd/system/svc-agent.service"), "utf8")).toContain("ExecStart=");
  }, 180_000);

  it("starts the agent, which installs svc-server and runs the configuration: the sensor answers as shown", async () => {
    agent = startBlock(blocks[1]!.text, home);
    const expected = shownOutput(blocks, 2).trim();
    await eventually(() => (runBlock(blocks[2]!.text, home).stdout.trim() === expected ? true : undefined), "the sensor through the agent's svc-server", {
      timeoutMs: 120_000,
    }).catch((error: Error) => {
      throw new Error(`${error.message}\n--- agent output (end) ---\n${agent!.output().slice(-4000)}`);
    });
    expect(existsSync(device("opt/svc/svc-server/current/svc-server"))).toBe(true);
    const pid = Number(readFileSync(device("var/lib/svc-agent/svc-server.pid"), "utf8"));
    await agent.stop();
    await eventually(() => (existsSync(`/proc/${pid}`) ? undefined : true), "the agent's svc-server to stop");
  }, 180_000);
});

// Operations and sessions behave the same in XS as on Node: one scenario (sessions, heartbeats,
// driven actuators, a lapse and its safety stop, resume, a long call listed and cancelled), run
// on both and compared byte for byte. core/rpc is bundled on its own (platform neutral, refusing
// any Node builtin) and loaded into a real XS worker.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runSessionScenario, type SessionScenarioInput } from "../../../core/rpc/index.js";
import { nodeBuiltinGuard } from "../../../tools/build/neutral-guard.mjs";
import { XsWorker, bundleAsScript } from "../../../tools/xs/xs-worker.js";

const scenario: SessionScenarioInput = {
  heartbeatWindowMs: 1_000,
  steps: [
    { start: "a" },
    { start: "b" },
    { drive: "left", session: "a" },
    { drive: "right", session: "b" },
    { drive: "arm" },
    { longCall: "spin", session: "a" },
    { advance: 600 },
    { heartbeat: "b" },
    { list: true },
    { advance: 400 },
    { heartbeat: "a" },
    { drive: "left", session: "a" },
    { start: "c", resume: "b" },
    { advance: 600 },
    { heartbeat: "b" },
    { cancel: "spin" },
    { cancel: "spin" },
    { list: true },
    { advance: 1_000 },
    { start: "d", resume: "b" },
  ],
};

const runner = (input: SessionScenarioInput) => `
globalThis.scenarioJson = undefined;
globalThis.svcRpc.runSessionScenario(${JSON.stringify(input)}).then(
  (out) => { globalThis.scenarioJson = JSON.stringify(out); },
  (e) => { globalThis.scenarioJson = JSON.stringify({ error: String(e) }); },
);
globalThis.handleCommand = () => new TextEncoder().encode(String(globalThis.scenarioJson)).buffer;
`;

describe("operations and sessions in XS", () => {
  let dir: string;
  let xs: XsWorker;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "svc-rpc-"));
    await build({
      entryPoints: [join(import.meta.dirname, "../../../core/rpc/index.ts")],
      outfile: join(dir, "rpc.mjs"),
      bundle: true,
      platform: "neutral",
      mainFields: ["module", "main"],
      target: "es2020",
      format: "esm",
      plugins: [nodeBuiltinGuard()],
      logLevel: "error",
    });
    xs = new XsWorker();
    await xs.evaluate(bundleAsScript(join(dir, "rpc.mjs"), "svcRpc"));
  });
  afterAll(async () => {
    await xs?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("writes down the same lines as on Node", async () => {
    const node = await runSessionScenario(scenario);
    await xs.evaluate(runner(scenario));
    const { reply } = await xs.command("result");
    expect(reply).toBe(JSON.stringify(node));
    expect(node.lines).toMatchSnapshot();
  });
});

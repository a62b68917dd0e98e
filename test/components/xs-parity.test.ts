// The built-in motor behaves the same in XS as on Node: one scenario, run on both, compared byte
// for byte. core/components is bundled here on its own (platform neutral, refusing any Node
// builtin) and loaded into a real XS worker.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMotorScenario, type MotorScenarioInput } from "../../core/components/index.js";
import { nodeBuiltinGuard } from "../../tools/build/neutral-guard.mjs";
import { XsWorker, bundleAsScript } from "../../tools/xs/xs-worker.js";

const scenario: MotorScenarioInput = {
  motor: { max_rpm: 90, ticks_per_rotation: 360 },
  steps: [
    { sample: "start" },
    { goFor: { rpm: 45, revolutions: 3 } },
    { advance: 1_333 },
    { sample: "turning" },
    { advance: 2_667 },
    { sample: "done" },
    { setPower: -0.7 },
    { advance: 777 },
    { sample: "reversing" },
    { stop: true },
    { resetZeroPosition: 0.25 },
    { goTo: { rpm: -30, position: -1 } },
    { advance: 1_000 },
    { sample: "going to -1" },
    { advance: 1_500 },
    { sample: "at -1" },
    { goFor: { rpm: 0, revolutions: 1 } },
    { setRPM: 200 },
    { advance: 10 },
    { sample: "clamped" },
  ],
};

// Runs the scenario once the bundle is loaded, and hands its JSON text back on request.
const runner = (input: MotorScenarioInput) => `
globalThis.scenarioJson = undefined;
globalThis.svcComponents.runMotorScenario(${JSON.stringify(input)}).then(
  (out) => { globalThis.scenarioJson = JSON.stringify(out); },
  (e) => { globalThis.scenarioJson = JSON.stringify({ error: String(e) }); },
);
globalThis.handleCommand = () => new TextEncoder().encode(String(globalThis.scenarioJson)).buffer;
`;

describe("the built-in motor in XS", () => {
  let dir: string;
  let xs: XsWorker;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "svc-components-"));
    await build({
      entryPoints: [join(import.meta.dirname, "../../core/components/index.ts")],
      outfile: join(dir, "components.mjs"),
      bundle: true,
      platform: "neutral",
      target: "es2020",
      format: "esm",
      plugins: [nodeBuiltinGuard()],
      logLevel: "error",
    });
    xs = new XsWorker();
    await xs.evaluate(bundleAsScript(join(dir, "components.mjs"), "svcComponents"));
  });
  afterAll(async () => {
    await xs?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("gives the same samples, completions and errors as on Node", async () => {
    const node = await runMotorScenario(scenario);
    await xs.evaluate(runner(scenario));
    const { reply } = await xs.command("result");
    expect(reply).toBe(JSON.stringify(node));

    const at = (label: string) => node.samples.find((s) => s.label === label)!;
    expect(at("turning")).toMatchObject({ moving: true, powerPct: 0.5 });
    expect(at("done")).toEqual({ label: "done", at: 4_000, position: 3, ticks: 1080, moving: false, powerPct: 0 });
    expect(at("at -1")).toMatchObject({ position: -1, moving: false });
    expect(at("clamped")).toMatchObject({ powerPct: 1, moving: true });
    expect(node.finished).toContain("goFor@1 at 4000");
    expect(node.errors).toEqual(["goFor@16: cannot move the motor at an rpm of nearly 0"]);
  });
});

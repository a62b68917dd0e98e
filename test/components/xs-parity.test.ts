// The built-in motor behaves the same in XS as on Node: one scenario, run on both, compared byte
// for byte. core/components is bundled here on its own (platform neutral, refusing any Node
// builtin) and loaded into a real XS worker.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMotorScenario, type MotorScenarioInput } from "./motor-scenario.js";
import { ScenarioInXs } from "../../tools/xs/scenario-in-xs.js";

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


describe("the built-in motor in XS", () => {
  let xs: ScenarioInXs;
  beforeAll(async () => {
    xs = await ScenarioInXs.start(join(import.meta.dirname, "motor-scenario.ts"));
  });
  afterAll(() => xs?.close());

  it("gives the same samples, completions and errors as on Node", async () => {
    const node = await runMotorScenario(scenario);
    const reply = await xs.run("runMotorScenario", scenario);
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

// The rule and de-duplication scenarios give the same answer, byte for byte, in XS (the MCU
// bundle) as on Node.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { ScenarioInXs } from "../../tools/xs/scenario-in-xs.js";
import { runLogScenario } from "./log-scenario.js";
import { dedupScenarios, ruleScenarios } from "./scenarios.js";

describe("log scenarios in XS", () => {
  let xs: ScenarioInXs;
  beforeAll(async () => {
    xs = await ScenarioInXs.start(join(import.meta.dirname, "log-scenario.ts"));
  });
  afterAll(() => xs.close());

  const all = { ...ruleScenarios, ...dedupScenarios };
  for (const [name, scenario] of Object.entries(all)) {
    it(`${name}: same JSON as on Node`, async () => {
      const node = JSON.stringify(runLogScenario(scenario));
      const json = await xs.run("runLogScenario", scenario);
      expect(json).toBe(node);
    });
  }
});

// The rule and de-duplication scenarios give the same answer, byte for byte, in XS (the MCU
// bundle) as on Node.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runLogScenario } from "../../core/index.js";
import { CoreInXs } from "../../tools/xs/core-in-xs.js";
import { dedupScenarios, ruleScenarios } from "./scenarios.js";

describe("log scenarios in XS", () => {
  let xs: CoreInXs;
  beforeAll(async () => {
    xs = await CoreInXs.start();
  });
  afterAll(() => xs.close());

  const all = { ...ruleScenarios, ...dedupScenarios };
  for (const [name, scenario] of Object.entries(all)) {
    it(`${name}: same JSON as on Node`, async () => {
      const node = JSON.stringify(runLogScenario(scenario));
      const { json } = await xs.callRaw("runLogScenario", scenario);
      expect(json).toBe(node);
    });
  }
});

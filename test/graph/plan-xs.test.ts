import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { planReconfigure } from "../../core/graph/index.js";
import { CoreInXs } from "../../tools/xs/core-in-xs.js";
import { generatedCases, handWrittenCases } from "./plan-cases.js";

describe("planning in XS", () => {
  let xs: CoreInXs;
  beforeAll(async () => {
    xs = await CoreInXs.start();
  });
  afterAll(() => xs?.close());

  const cases = [...handWrittenCases, ...generatedCases(6, 200, 11)];
  it.each(cases.map((c) => [c.name, c] as const))("gives the same plan as Node: %s", async (_, c) => {
    const { json } = await xs.callRaw("planReconfigure", c.request);
    expect(json).toBe(JSON.stringify(planReconfigure(c.request)));
  });
});

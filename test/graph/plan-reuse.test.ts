// The planner's fast path (reusing the previous graph when the configuration keeps its shape)
// must give exactly the plan the full planner gives, or step aside.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toGraphEntries } from "../../core/graph/graph-entry.js";
import { resourceConfigEqual, type PlanResourceInput } from "../../core/graph/index.js";
import { builtState } from "../../core/graph/plan-reconfigure.js";
import { reusePlan } from "../../core/graph/plan-reuse.js";
import { computePlan } from "../../core/graph/plan.js";

function machine(size: number, rand: () => number): PlanResourceInput[] {
  const apis = ["board", "motor", "sensor"];
  const list: PlanResourceInput[] = [];
  for (let i = 0; i < size; i++) {
    const deps: string[] = [];
    for (let k = Math.floor(rand() * 3); k > 0 && i > 0; k--) deps.push(`n${Math.floor(rand() * i)}`);
    if (rand() < 0.02) deps.push(`n${Math.floor(rand() * size)}`);
    if (rand() < 0.02) deps.push("absent");
    const input: PlanResourceInput = {
      config: { name: `n${i}`, api: `rdk:component:${apis[i % 3]}`, model: "rdk:builtin:fake", attributes: { v: 0 }, depends_on: deps },
      path: `components[${i}]`,
    };
    if (rand() < 0.03) input.modelKnown = false;
    list.push(input);
  }
  return list;
}

function edit(from: PlanResourceInput[], rand: () => number): PlanResourceInput[] {
  return from.map((input) => {
    const roll = rand();
    const config = { ...input.config };
    if (roll < 0.05) config.attributes = { v: 1 };
    else if (roll < 0.07) config.depends_on = [];
    else if (roll < 0.08) config.model = "rdk:builtin:other";
    else if (roll < 0.09) config.log_configuration = { level: "debug" };
    else if (roll < 0.1) return { ...input, config, modelKnown: !input.modelKnown };
    return { ...input, config };
  });
}

function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("planning by reusing the previous graph", () => {
  it("gives the full planner's plan whenever it answers, and answers for edits that keep the shape", () => {
    let answered = 0;
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), fc.integer(), (size, seed) => {
        const rand = random(seed);
        const from = machine(size, rand);
        const to = edit(from, rand);
        const before = toGraphEntries(from);
        const first = computePlan(new Map(), undefined, before.entries, before.rejected);
        const state = builtState(first);
        const after = toGraphEntries(to);
        const full = computePlan(state, first.graph, after.entries, after.rejected).plan;
        // What the engine passes: nothing for entries equal to the running ones with the same validation.
        const inputs = to.map((input, i) => {
          const was = from[i]!;
          const same = resourceConfigEqual(was.config, input.config) && was.modelKnown === input.modelKnown;
          return same ? undefined : { ...input, unchanged: resourceConfigEqual(was.config, input.config) };
        });
        const reused = reusePlan(state, first.graph, to.map((t) => t.config), to.map((t) => t.path!), inputs);
        // Shape: references, and whether (and why) an entry is held back.
        const changedShape = to.some((input, i) => {
          const was = from[i]!;
          const heldForModel = input.modelKnown === false && input.config.model !== was.config.model;
          return input.config.depends_on.join() !== was.config.depends_on.join() || input.modelKnown !== was.modelKnown || heldForModel;
        });
        if (!changedShape) expect(reused).toBeDefined();
        if (reused) {
          answered++;
          expect(reused.plan).toEqual(full);
        }
      }),
      { numRuns: 500 },
    );
    expect(answered).toBeGreaterThan(20);
  });
});

// Planning cases, as JSON requests for planReconfigure: hand-written ones for each rule and
// generated ones (random DAGs with random changes, from a fixed seed) for breadth.
import type { ResourceConfig } from "../../core/config/index.js";
import type { PlanRequest, PlanResourceInput } from "../../core/graph/index.js";

export interface PlanCase {
  name: string;
  request: PlanRequest;
}

function r(api: string, name: string, extra: Partial<ResourceConfig> = {}, input: Partial<PlanResourceInput> = {}): PlanResourceInput {
  return { config: { name, api: `rdk:component:${api}`, model: "rdk:builtin:fake", attributes: {}, depends_on: [], ...extra }, ...input };
}

const base = [r("board", "b1"), r("motor", "m1", { depends_on: ["b1"] }), r("encoder", "e1", { depends_on: ["m1"] }), r("sensor", "s1")];

export const handWrittenCases: PlanCase[] = [
  { name: "start-up builds by level", request: { to: base } },
  { name: "nothing changed", request: { from: base, to: base } },
  {
    name: "one leaf changed",
    request: { from: base, to: [base[0]!, base[1]!, base[2]!, r("sensor", "s1", { attributes: { v: 2 } })] },
  },
  {
    name: "a root changed: dependents closed first, rebuilt after",
    request: { from: base, to: [r("board", "b1", { attributes: { v: 2 } }), base[1]!, base[2]!, base[3]!] },
  },
  { name: "a dependency removed", request: { from: base, to: [base[1]!, base[2]!, base[3]!] } },
  { name: "a dependency returns", request: { from: [base[1]!, base[2]!, base[3]!], to: base } },
  {
    name: "a cycle holds back only its members",
    request: {
      to: [
        r("board", "a", { depends_on: ["c"] }),
        r("motor", "b", { depends_on: ["a"] }),
        r("sensor", "c", { depends_on: ["b"] }),
        r("sensor", "d", { depends_on: ["a"] }),
        r("sensor", "e"),
      ],
    },
  },
  {
    name: "an ambiguous simple name",
    request: { to: [r("board", "x"), r("sensor", "x"), r("motor", "m", { depends_on: ["x"] }), r("motor", "n", { depends_on: ["rdk:component:sensor/x"] })] },
  },
  {
    name: "implicit and optional dependencies from validators",
    request: {
      to: [r("board", "b1"), r("motor", "m", {}, { requires: ["b1"], optional: ["rdk:component:sensor/absent"] }), r("encoder", "e", {}, { optional: ["m"] })],
    },
  },
  {
    name: "an optional dependency appears",
    request: {
      from: [r("motor", "m", {}, { optional: ["b1"] })],
      to: [r("motor", "m", {}, { optional: ["b1"] }), r("board", "b1")],
    },
  },
  {
    name: "unknown model and invalid attributes",
    request: {
      to: [
        r("board", "b1", {}, { modelKnown: false }),
        r("motor", "m", { depends_on: ["b1"] }),
        r("sensor", "s", {}, { issues: [{ path: "components[2].attributes.pin", message: "must be an integer", severity: "error" }] }),
        r("sensor", "w", {}, { issues: [{ path: "components[3].attributes.x", message: "unknown key", severity: "warning" }] }),
      ],
    },
  },
  {
    name: "entries that cannot be named, duplicates, remote names",
    request: {
      to: [
        r("board", "bad name"),
        r("board", "b1"),
        r("board", "b1", { attributes: { again: true } }),
        { config: { name: "x", api: "rdk:component", model: "rdk:builtin:fake", attributes: {}, depends_on: [] } },
        r("motor", "m", { depends_on: ["pi:b1"] }),
        r("motor", "n", { depends_on: ["rdk:component:board/pi:b1"] }),
        r("motor", "o", { model: "fake" }),
      ],
    },
  },
  {
    name: "reordered depends_on, key order and log level do not count as changes",
    request: {
      from: [r("board", "a"), r("board", "b"), r("motor", "m", { depends_on: ["a", "b"], attributes: { x: 1, y: [1, 2] } })],
      to: [
        r("board", "a"),
        r("board", "b"),
        r("motor", "m", { depends_on: ["b", "a"], attributes: { y: [1, 2], x: 1 }, log_configuration: { level: "debug" } }),
      ],
    },
  },
  {
    name: "the same dependency written by full name instead of simple name",
    request: { from: base, to: [base[0]!, r("motor", "m1", { depends_on: ["rdk:component:board/b1"] }), base[2]!, base[3]!] },
  },
  {
    name: "running resources keep their entries when the new ones have configuration errors",
    request: {
      from: base,
      to: [
        r("board", "b1", { attributes: { v: 2 } }, { issues: [{ path: "components[0].attributes.v", message: "must be 1", severity: "error" }] }),
        r("motor", "m1", { depends_on: ["b1", "e1"] }),
        base[2]!,
        r("sensor", "s1", { attributes: { v: 2 } }),
      ],
    },
  },
  {
    name: "a renamed resource",
    request: { from: base, to: [r("board", "b2"), r("motor", "m1", { depends_on: ["b2"] }), base[2]!, base[3]!] },
  },
];

function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random machines of `size` resources (some referring back to form cycles) and a random change of each. */
export function generatedCases(count: number, size: number, seed: number): PlanCase[] {
  const rand = random(seed);
  const apis = ["board", "motor", "sensor", "encoder"];
  const cases: PlanCase[] = [];
  for (let c = 0; c < count; c++) {
    const from: PlanResourceInput[] = [];
    for (let i = 0; i < size; i++) {
      const deps: string[] = [];
      const k = Math.floor(rand() * 3);
      for (let j = 0; j < k && i > 0; j++) deps.push(`n${Math.floor(rand() * i)}`);
      if (rand() < 0.01) deps.push(`n${Math.floor(rand() * size)}`);
      from.push(r(apis[Math.floor(rand() * apis.length)]!, `n${i}`, { depends_on: deps, attributes: { v: 0 } }));
    }
    const to: PlanResourceInput[] = [];
    for (const entry of from) {
      const roll = rand();
      if (roll < 0.03) continue;
      if (roll < 0.08) to.push({ ...entry, config: { ...entry.config, attributes: { v: 1 } } });
      else if (roll < 0.1) to.push({ ...entry, config: { ...entry.config, depends_on: [] } });
      else to.push(entry);
    }
    for (let i = 0; i < size / 20; i++) to.push(r("sensor", `extra${i}`, { depends_on: [`n${Math.floor(rand() * size)}`] }));
    cases.push({ name: `generated ${c}`, request: { from, to } });
  }
  return cases;
}

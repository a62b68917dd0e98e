import { describe, expect, it } from "vitest";
import { buildDependencyGraph } from "../../core/graph/dependency-graph.js";
import { toGraphEntries } from "../../core/graph/graph-entry.js";
import { planReconfigure } from "../../core/graph/index.js";
import { generatedCases, handWrittenCases } from "./plan-cases.js";

const plan = (name: string) => planReconfigure(handWrittenCases.find((c) => c.name === name)!.request);
const b1 = "rdk:component:board/b1";
const m1 = "rdk:component:motor/m1";
const e1 = "rdk:component:encoder/e1";
const s1 = "rdk:component:sensor/s1";

describe("planning a reconfiguration", () => {
  it("builds a new machine level by level", () => {
    expect(plan("start-up builds by level")).toMatchObject({ added: [b1, m1, e1, s1], close: [], build: [[b1, s1], [m1], [e1]] });
  });

  it("touches nothing when nothing changed", () => {
    expect(plan("nothing changed")).toMatchObject({ unchanged: [b1, m1, e1, s1], close: [], build: [], held: [] });
  });

  it("rebuilds only a changed leaf", () => {
    expect(plan("one leaf changed")).toMatchObject({ modified: [s1], close: [[s1]], build: [[s1]] });
  });

  it("closes the dependents of a changed resource first and rebuilds them after it", () => {
    expect(plan("a root changed: dependents closed first, rebuilt after")).toMatchObject({
      modified: [b1],
      unchanged: [m1, e1, s1],
      close: [[e1], [m1], [b1]],
      build: [[b1], [m1], [e1]],
    });
  });

  it("holds the dependents of a removed resource, naming it, and builds them when it returns", () => {
    expect(plan("a dependency removed")).toMatchObject({
      removed: [b1],
      close: [[e1], [m1], [b1]],
      build: [],
      held: [
        { name: m1, state: "UNCONFIGURED", error: 'missing dependency "b1": no such resource is configured' },
        { name: e1, state: "UNCONFIGURED", error: `waiting for dependency ${m1} (UNCONFIGURED: missing dependency "b1": no such resource is configured)` },
      ],
    });
    expect(plan("a dependency returns")).toMatchObject({ added: [b1], close: [], build: [[b1], [m1], [e1]] });
  });

  it("rebuilds a resource whose optional dependency appears", () => {
    expect(plan("an optional dependency appears")).toMatchObject({
      close: [["rdk:component:motor/m"]],
      build: [[b1], ["rdk:component:motor/m"]],
    });
  });

  it("does not count key order, depends_on order or log level as a change", () => {
    expect(plan("reordered depends_on, key order and log level do not count as changes")).toMatchObject({ modified: [], build: [], close: [] });
  });

  it("counts a dependency written differently as a change of that entry only", () => {
    expect(plan("the same dependency written by full name instead of simple name")).toMatchObject({
      modified: [m1],
      close: [[e1], [m1]],
      build: [[m1], [e1]],
    });
  });

  it("keeps running resources on their entries when the new ones have configuration errors, and plans the rest", () => {
    const p = plan("running resources keep their entries when the new ones have configuration errors");
    expect(p).toMatchObject({ modified: [s1], close: [[s1]], build: [[s1]], held: [] });
    expect(p.kept).toEqual([
      { name: b1, path: "resources[0]", error: "invalid configuration: components[0].attributes.v: must be 1" },
      { name: m1, path: "resources[1]", error: `dependency cycle: ${m1} -> ${e1} -> ${m1}` },
    ]);
  });

  it("lists the rejected entries and why", () => {
    expect(plan("entries that cannot be named, duplicates, remote names").rejected.map((r) => r.path)).toEqual([
      "resources[0].name",
      "resources[2]",
      "resources[3].api",
    ]);
  });

  it("never rebuilds a resource none of whose dependencies changed, on generated machines", () => {
    for (const c of generatedCases(10, 300, 7)) {
      const p = planReconfigure(c.request);
      const built = new Set(p.build.flat());
      const closed = new Set(p.close.flat());
      const before = new Map(c.request.from!.map((e) => [`${e.config.api}/${e.config.name}`, e]));
      const after = toGraphEntries(c.request.to).entries;
      const graph = buildDependencyGraph(after);
      for (let i = 0; i < after.length; i++) {
        const name = after[i]!.name;
        if (!built.has(name)) continue;
        const was = before.get(name);
        const deps = Array.from(graph.edgeTo.subarray(graph.edgeStart[i]!, graph.edgeStart[i + 1]!));
        const depChanged = deps.some((t) => built.has(after[t]!.name));
        const own = !was || JSON.stringify(was.config) !== JSON.stringify(after[i]!.config);
        // Built with no change of its own and no rebuilt dependency: only if it was not running before.
        if (!own && !depChanged && closed.has(name)) throw new Error(`${c.name}: ${name} rebuilt without reason`);
      }
      // Every level only depends on earlier levels.
      const levelOf = new Map<string, number>();
      p.build.forEach((level, k) => level.forEach((name) => levelOf.set(name, k)));
      for (let i = 0; i < after.length; i++) {
        const k = levelOf.get(after[i]!.name);
        if (k === undefined) continue;
        for (const t of graph.edgeTo.subarray(graph.edgeStart[i]!, graph.edgeStart[i + 1]!)) {
          const dk = levelOf.get(after[t]!.name);
          if (dk !== undefined) expect(dk).toBeLessThan(k);
        }
      }
    }
  });
});

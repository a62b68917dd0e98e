// What the engine says, and what it keeps, when an entry cannot run: every resource that fails to
// build or is held back is named in the log once, with the reason (not again on each retry or
// re-plan, again only when the reason changes; a wait only once it outlasts a short grace); and an edit that gives a running resource a
// configuration error (its model refuses the entry, or its depends_on makes a cycle) leaves that
// resource running on its previous entry, refuses the entry with its reason and applies the rest.
import { describe, expect, it } from "vitest";
import { WAIT_GRACE_MS } from "../../core/graph/problem-log.js";
import { cfg, createTestMachine, machine, registerTestModel, type LogLine, type TestMachine } from "./test-machine.js";

const board = "rdk:component:board";
const motor = "rdk:component:motor";
const sensor = "rdk:component:sensor";

/** Log lines that name `name`. */
const about = (m: TestMachine, name: string): LogLine[] => m.logs.filter((l) => l.message.includes(name));
const problems = (m: TestMachine, name: string) => about(m, name).filter((l) => l.level === "warn" || l.level === "error");

describe("a resource that cannot run", () => {
  it("says once why its build fails, not on every retry, and says when it runs after all", async () => {
    const m = createTestMachine();
    await m.engine.apply(machine([cfg("board", "b1", { attributes: { fail: "no bus" } })]));
    await m.clock.advance(63_000);
    expect(m.journal.builds.length).toBeGreaterThan(5);
    expect(problems(m, `${board}/b1`)).toEqual([
      { level: "error", message: `${board}/b1: building failed: no bus`, fields: { resource: `${board}/b1`, state: "UNHEALTHY" } },
    ]);

    await m.engine.apply(machine([cfg("board", "b1")]));
    expect(about(m, `${board}/b1`).at(-1)).toMatchObject({ level: "info", message: `${board}/b1 is running` });
  });

  it.each([
    ["its model refuses the entry", [cfg("sensor", "s", { attributes: { invalid: "must be warm" } })], "UNHEALTHY", "invalid configuration: components[0].attributes.invalid: must be warm"],
    ["no model is registered for it", [cfg("sensor", "s", { model: "acme:demo:nothing" })], "UNCONFIGURED", `no model acme:demo:nothing is registered for API ${sensor}; waiting for it to be registered`],
    ["a dependency is not configured", [cfg("sensor", "s", { depends_on: ["ghost"] })], "UNCONFIGURED", 'missing dependency "ghost": no such resource is configured'],
    [
      "a dependency's name is ambiguous",
      [cfg("sensor", "s", { depends_on: ["twin"] }), cfg("board", "twin"), cfg("motor", "twin")],
      "UNHEALTHY",
      `dependency "twin" is ambiguous: ${board}/twin and ${motor}/twin both match; write the full name`,
    ],
    ["it is in a dependency cycle", [cfg("sensor", "s", { depends_on: ["t"] }), cfg("board", "t", { depends_on: ["s"] })], "UNHEALTHY", `dependency cycle: ${sensor}/s -> ${board}/t -> ${sensor}/s`],
  ])("is named in the log once when %s, through edits and re-plans", async (_case, components, state, reason) => {
    const m = createTestMachine();
    await m.engine.apply(machine(components));
    await m.clock.advance(WAIT_GRACE_MS);
    await m.engine.apply(machine([...components, cfg("board", "other")]));
    m.registry.register({ api: "rdk:component:servo", model: "acme:demo:unrelated", build: async () => ({ name: { namespace: "", type: "", subtype: "", name: "" }, close: async () => {} }) });
    await m.engine.whenIdle();
    await m.clock.advance(WAIT_GRACE_MS);
    expect(problems(m, `${sensor}/s:`)).toEqual([
      { level: state === "UNHEALTHY" ? "error" : "warn", message: `${sensor}/s: ${reason}`, fields: { resource: `${sensor}/s`, state } },
    ]);
  });

  it("says once that a dependent waits, and again when what it waits for changes", async () => {
    const m = createTestMachine();
    await m.engine.apply(machine([cfg("board", "b1", { attributes: { fail: "no bus" } }), cfg("motor", "m", { depends_on: ["b1"] })]));
    await m.clock.advance(10_000);
    expect(problems(m, `${motor}/m:`).map((l) => l.message)).toEqual([
      `${motor}/m: waiting for dependency ${board}/b1 (UNHEALTHY: building failed: no bus)`,
    ]);
    await m.engine.apply(machine([cfg("board", "b1", { attributes: { fail: "no power" } }), cfg("motor", "m", { depends_on: ["b1"] })]));
    await m.clock.advance(WAIT_GRACE_MS);
    expect(problems(m, `${motor}/m:`)).toHaveLength(2);
  });

  it("says nothing of a wait that ends within a few seconds, as when a module brings the model while it starts", async () => {
    const m = createTestMachine();
    const model = "acme:demo:late";
    await m.engine.apply(machine([cfg("sensor", "s", { model }), cfg("motor", "m", { depends_on: ["s"] })]));
    await m.clock.advance(WAIT_GRACE_MS - 1);
    registerTestModel(m.registry, m.journal, () => m.engine, sensor, model);
    await m.engine.whenIdle();
    await m.clock.advance(WAIT_GRACE_MS);
    expect(m.snapshot()).toEqual({ [`${sensor}/s`]: "READY", [`${motor}/m`]: "READY" });
    expect(m.logs.filter((l) => l.level !== "info")).toEqual([]);
  });
});

describe("an edit that gives a running resource a configuration error", () => {
  async function running(): Promise<TestMachine> {
    const m = createTestMachine();
    await m.engine.apply(
      machine([cfg("board", "b1", { attributes: { v: 1 } }), cfg("motor", "m", { depends_on: ["b1"] }), cfg("sensor", "s", { attributes: { v: 1 } })]),
    );
    expect(m.journal.builds).toHaveLength(3);
    return m;
  }
  const ready = { [`${board}/b1`]: "READY", [`${motor}/m`]: "READY", [`${sensor}/s`]: "READY" };

  it("keeps the resource on its previous entry when its model refuses the new one, and applies the rest", async () => {
    const m = await running();
    const b1 = m.journal.live.get(`${board}/b1`);
    const result = await m.engine.apply(
      machine([
        cfg("board", "b1", { attributes: { v: 2, invalid: "must be a number" } }),
        cfg("motor", "m", { depends_on: ["b1"] }),
        cfg("sensor", "s", { attributes: { v: 2 } }),
      ]),
    );
    expect(m.snapshot()).toEqual(ready);
    expect(m.journal.live.get(`${board}/b1`)).toBe(b1);
    expect(m.journal.closes).toEqual([`${sensor}/s`]);
    expect(result.outcome === "applied" && result.plan.kept).toEqual([
      { name: `${board}/b1`, path: "components[0]", error: "invalid configuration: components[0].attributes.invalid: must be a number" },
    ]);
    expect(problems(m, `${board}/b1`)).toEqual([
      {
        level: "error",
        message: `${board}/b1: the changed entry is refused and the resource keeps running as configured before: invalid configuration: components[0].attributes.invalid: must be a number`,
        fields: { resource: `${board}/b1`, path: "components[0]" },
      },
    ]);
  });

  it("keeps both ends of a new dependency cycle running, and applies the rest", async () => {
    const m = await running();
    const result = await m.engine.apply(
      machine([
        cfg("board", "b1", { attributes: { v: 1 }, depends_on: ["s"] }),
        cfg("motor", "m", { depends_on: ["b1"] }),
        cfg("sensor", "s", { attributes: { v: 2 }, depends_on: ["m"] }),
        cfg("sensor", "added"),
      ]),
    );
    expect(m.snapshot()).toEqual({ ...ready, [`${sensor}/added`]: "READY" });
    expect(m.journal.closes).toEqual([]);
    expect(result.outcome === "applied" && result.plan.kept.map((k) => [k.name, k.error])).toEqual([
      [`${board}/b1`, `dependency cycle: ${board}/b1 -> ${sensor}/s -> ${motor}/m -> ${board}/b1`],
      [`${sensor}/s`, `dependency cycle: ${board}/b1 -> ${sensor}/s -> ${motor}/m -> ${board}/b1`],
    ]);
  });

  it("says so once while the entry stays as it is, and applies it once it is mended", async () => {
    const m = await running();
    const bad = cfg("sensor", "s", { attributes: { invalid: "too cold" } });
    await m.engine.apply(machine([cfg("board", "b1", { attributes: { v: 1 } }), cfg("motor", "m", { depends_on: ["b1"] }), bad]));
    await m.engine.apply(machine([cfg("board", "b1", { attributes: { v: 3 } }), cfg("motor", "m", { depends_on: ["b1"] }), bad]));
    expect(m.snapshot()).toEqual(ready);
    expect(problems(m, `${sensor}/s`)).toHaveLength(1);

    await m.engine.apply(machine([cfg("board", "b1", { attributes: { v: 3 } }), cfg("motor", "m", { depends_on: ["b1"] }), cfg("sensor", "s", { attributes: { v: 9 } })]));
    expect(m.snapshot()).toEqual(ready);
    expect(m.journal.builds.filter((b) => b === `${sensor}/s`)).toHaveLength(2);
  });

  it("holds back a new resource with the same error, as before: there is nothing to keep", async () => {
    const m = await running();
    await m.engine.apply(machine([cfg("sensor", "s", { attributes: { v: 1 } }), cfg("sensor", "new", { attributes: { invalid: "no" } })]));
    expect(m.snapshot()[`${sensor}/new`]).toBe("UNHEALTHY: invalid configuration: components[1].attributes.invalid: no");
  });
});

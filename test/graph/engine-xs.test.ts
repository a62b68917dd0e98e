import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CoreInXs } from "../../tools/xs/core-in-xs.js";

// The engine is asynchronous, so it cannot be called through JSON alone: a script run in the
// worker brings a small machine up on a hand-driven clock, and the outcome is read back after XS
// has run its promise jobs.
const scenario = `
(() => {
  const core = globalThis.svcCore;
  const timers = [];
  const clock = { now: () => 0, setTimeout: (fn) => { timers.push(fn); return timers.length; }, clearTimeout: () => undefined };
  const registry = core.createModelRegistry();
  const order = [];
  for (const api of ["rdk:component:board", "rdk:component:motor"]) {
    registry.register({
      api,
      model: "rdk:builtin:fake",
      build: async (ctx) => {
        order.push(ctx.name.name + "<" + ctx.dependencies.names().join(","));
        if (ctx.config.attributes.fail) throw new Error("no bus");
        return { name: ctx.name, close: async () => { order.push("close " + ctx.name.name); } };
      },
    });
  }
  const engine = core.createGraphEngine({ registry, clock });
  const r = (api, name, depends_on, attributes) => ({ name, api: "rdk:component:" + api, model: "rdk:builtin:fake", attributes: attributes || {}, depends_on });
  globalThis.svcCore.graphScenarioResult = () => globalThis.graphScenarioOutcome;
  engine.apply({ components: [r("motor", "m", ["b"]), r("board", "b", []), r("board", "bad", [], { fail: true })] })
    .then(() => engine.close())
    .then((report) => {
      const status = engine.status();
      globalThis.graphScenarioOutcome = { state: status.state, order, report, resources: status.resources.map((s) => s.name + " " + s.state + (s.error ? " " + s.error : "")) };
    }, (e) => { globalThis.graphScenarioOutcome = { error: String(e) }; });
})();
`;

describe("the engine in XS", () => {
  let xs: CoreInXs;
  beforeAll(async () => {
    xs = await CoreInXs.start();
  });
  afterAll(() => xs?.close());

  it("brings a machine up in dependency order and shuts it down dependents first", async () => {
    await xs.evaluate(scenario);
    expect(await xs.call("graphScenarioResult")).toEqual({
      state: "RUNNING",
      order: ["b<", "bad<", "m<rdk:component:board/b", "close m", "close b"],
      report: { closed: ["rdk:component:motor/m", "rdk:component:board/b"], failed: [], hung: [] },
      resources: [
        "rdk:component:motor/m UNCONFIGURED",
        "rdk:component:board/b UNCONFIGURED",
        "rdk:component:board/bad UNHEALTHY building failed: no bus",
      ],
    });
  });
});

import { describe, expect, it } from "vitest";
import { cfg, createTestMachine, machine } from "./test-machine.js";

describe("a model whose provider says why it is missing", () => {
  it("shows the reason on the resource and, through it, on its dependents, and builds them when the model comes", async () => {
    const m = createTestMachine();
    const api = "rdk:component:sensor";
    const model = "acme:demo:counter";
    m.registry.explainAbsence(api, model, 'module "counter" is starting');
    await m.engine.apply(machine([cfg("sensor", "s", { model }), cfg("motor", "m", { depends_on: ["s"] })]));
    const waiting = m.snapshot();
    expect(waiting[`${api}/s`]).toBe(`UNCONFIGURED: model ${model} (API ${api}) is not available: module "counter" is starting`);
    expect(waiting["rdk:component:motor/m"]).toContain('module "counter" is starting');

    m.registry.explainAbsence(api, model, 'module "counter" is restarting after it was killed by SIGKILL');
    await m.engine.whenIdle();
    expect(m.snapshot()[`${api}/s`]).toContain("killed by SIGKILL");

    m.registry.explainAbsence(api, model, undefined);
    m.registry.register({ api, model, build: async (ctx) => ({ name: ctx.name, close: async () => {}, getReadings: async () => ({}) }) });
    await m.engine.whenIdle();
    expect(m.snapshot()[`${api}/s`]).toBe("READY");
  });
});

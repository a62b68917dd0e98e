import { describe, expect, it } from "vitest";
import { createModelRegistry, type Resource } from "../../core/resource/index.js";
import { cfg, createTestMachine, machine } from "./test-machine.js";

const board = "rdk:component:board";
const motor = "rdk:component:motor";
const MODEL = "acme:demo:tunable";

interface Tunable extends Resource {
  id: number;
  attributes: Record<string, unknown>;
  // What the recording test model expects of a dependency it is given.
  fullName: string;
  closed: boolean;
  users: Set<unknown>;
}

/** A machine whose boards can also be of a model that takes new attributes in place. */
function tunableMachine() {
  const registry = createModelRegistry();
  const m = createTestMachine({ registry });
  const log: string[] = [];
  let nextId = 1;
  registry.register({
    api: board,
    model: MODEL,
    async build(ctx) {
      const fullName = `${ctx.config.api}/${ctx.config.name}`;
      const resource: Tunable = {
        name: ctx.name,
        id: nextId++,
        attributes: ctx.config.attributes,
        fullName,
        closed: false,
        users: new Set(),
        async close() {
          resource.closed = true;
          if ((m.journal.live.get(fullName) as unknown) === resource) m.journal.live.delete(fullName);
          log.push(`close ${resource.id}`);
        },
      };
      m.journal.live.set(fullName, resource as never);
      log.push(`build ${resource.id}`);
      return resource;
    },
    async reconfigure(resource, ctx) {
      const tunable = resource as Tunable;
      if (ctx.config.attributes.refuse === true) throw new Error("cannot change that while running");
      tunable.attributes = ctx.config.attributes;
      log.push(`reconfigure ${tunable.id} deps=${ctx.dependencies.names().join(",")}`);
    },
  });
  return { m, log };
}

describe("reconfiguring in place", () => {
  it("hands a changed configuration to the running instance, keeps it, and still rebuilds its dependents", async () => {
    const { m, log } = tunableMachine();
    const conf = (speed: number) => machine([cfg("board", "b", { model: MODEL, attributes: { speed } }), cfg("motor", "m", { depends_on: ["b"] })]);
    await m.engine.apply(conf(1));
    const first = m.engine.resource(`${board}/b`) as Tunable;
    const builds = m.journal.builds.length;
    await m.engine.apply(conf(2));
    expect(log).toEqual(["build 1", "reconfigure 1 deps="]);
    expect(m.engine.resource(`${board}/b`)).toBe(first);
    expect(first.attributes).toEqual({ speed: 2 });
    expect(m.journal.builds.slice(builds)).toEqual([`${motor}/m`]);
    expect(m.snapshot()).toEqual({ [`${board}/b`]: "READY", [`${motor}/m`]: "READY" });
    expect(m.journal.violations).toEqual([]);
  });

  it("closes and builds afresh when the model refuses the change", async () => {
    const { m, log } = tunableMachine();
    await m.engine.apply(machine([cfg("board", "b", { model: MODEL, attributes: {} })]));
    await m.engine.apply(machine([cfg("board", "b", { model: MODEL, attributes: { refuse: true } })]));
    expect(log).toEqual(["build 1", "close 1", "build 2"]);
    expect(m.snapshot()).toEqual({ [`${board}/b`]: "READY" });
    expect(m.logs.some((l) => l.level === "warn" && l.message.includes("cannot change that while running"))).toBe(true);
  });

  it("builds afresh when the model itself changes", async () => {
    const { m, log } = tunableMachine();
    await m.engine.apply(machine([cfg("board", "b")]));
    await m.engine.apply(machine([cfg("board", "b", { model: MODEL })]));
    await m.engine.apply(machine([cfg("board", "b", { model: MODEL, attributes: { x: 1 } })]));
    expect(log).toEqual(["build 1", "reconfigure 1 deps="]);
    expect(m.journal.closes).toEqual([`${board}/b`]);
  });
});

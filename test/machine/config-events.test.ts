// The core machine tells whoever follows it what became of each configuration, in order: a load
// begun, a configuration taken (before it is built) or refused, one put back when taking the
// next failed part way, and the load's result. Followers that throw change nothing of the load;
// loads handed in together run one after another.
import { afterEach, describe, expect, it } from "vitest";
import {
  createCollectingSink,
  createLogEngine,
  createMachine,
  createManualClock,
  createModelRegistry,
  registerBuiltinModels,
  type ConfigEvent,
  type Machine,
  type MachineConfig,
  type MachineModules,
} from "../../core/index.js";
import { createSimBoard } from "../../hal/sim/index.js";

const sensors = (...names: string[]) => ({ components: names.map((name) => ({ name, api: "rdk:component:sensor", model: "fake" })) });

let machine: Machine | undefined;
afterEach(async () => {
  await machine?.close();
  machine = undefined;
});

/** Modules whose `prepare` can be made to wait, or to throw for a configuration with a module named "boom". */
function testModules() {
  let hold: Promise<void> | undefined;
  let release = () => {};
  const modules: MachineModules = {
    async prepare(config: MachineConfig) {
      await hold;
      if (config.modules.some((m) => m.name === "boom")) throw new Error("the module would not start");
    },
    finish: async () => {},
    resourceStatuses: () => [],
    close: async () => {},
  };
  return {
    modules,
    holdNext() {
      hold = new Promise((resolve) => (release = resolve));
    },
    release: () => release(),
  };
}

function start(modules?: MachineModules) {
  const clock = createManualClock();
  const sink = createCollectingSink();
  const registry = createModelRegistry();
  registerBuiltinModels(registry, { ioForBoard: () => createSimBoard().io });
  machine = createMachine({
    registry,
    logEngine: createLogEngine({ clock, sink }),
    clock,
    revisionOf: (text) => String(text.length).padStart(12, "0"),
    modules: modules && (() => modules),
  });
  const events: ConfigEvent[] = [];
  machine.onConfig((event) => events.push(event));
  return { machine, sink, events };
}

const kinds = (events: ConfigEvent[]) => events.map((e) => e.kind);

describe("the machine's config events", () => {
  it("tell each step of a load, every one with the configuration in force after it", async () => {
    const { machine, events } = start();
    await machine.load(sensors("a"), "first.json");
    expect(kinds(events)).toEqual(["loading", "accepted", "loaded"]);
    const accepted = events[1] as Extract<ConfigEvent, { kind: "accepted" }>;
    expect(accepted).toMatchObject({ origin: "first.json", previous: undefined });
    expect(accepted.running).toBe(machine.current());
    expect(events[2]).toMatchObject({ result: { outcome: "applied" }, running: machine.current() });

    events.length = 0;
    await machine.load(sensors("a", "b!"), "second.json");
    expect(kinds(events)).toEqual(["loading", "refused", "loaded"]);
    expect(events[1]).toMatchObject({ first: false, origin: "second.json", running: accepted.running, refusal: { reason: expect.stringMatching(/components\[1\]\.name/) } });

    events.length = 0;
    await machine.load(sensors("a"), "first.json");
    expect(kinds(events)).toEqual(["loading", "loaded"]);
    expect(events[1]).toMatchObject({ result: { outcome: "unchanged" } });
  });

  it("say whether a refused load was the first, and give the document as it was written", async () => {
    const { machine, events } = start();
    await machine.load('{"components": [], "auth": {"handlers": [], "bogus": 1}}', "f");
    const refused = events.find((e) => e.kind === "refused") as Extract<ConfigEvent, { kind: "refused" }>;
    expect(refused.first).toBe(true);
    expect(refused.running).toBeUndefined();
    expect(refused.written()).toEqual({ components: [], auth: { handlers: [], bogus: 1 } });
  });

  it("go on past a follower that throws: the load is applied and the failure logged", async () => {
    const { machine, sink, events } = start();
    machine.onConfig(() => {
      throw new Error("follower broke");
    });
    expect((await machine.load(sensors("a"), "f")).outcome).toBe("applied");
    expect(kinds(events)).toEqual(["loading", "accepted", "loaded"]);
    expect(sink.entries.filter((e) => e.message === "a configuration listener failed")).toHaveLength(3);
  });

  it("put the configuration before back in force when taking the next fails part way", async () => {
    const test = testModules();
    const { machine, events } = start(test.modules);
    await machine.load(sensors("a"), "f");
    const before = machine.current();

    events.length = 0;
    const failed = await machine.load({ ...sensors("a", "b"), modules: [{ type: "local", name: "boom", executable_path: "/bin/true" }] }, "f");
    expect(failed).toMatchObject({ outcome: "failed", error: "Error: the module would not start" });
    expect(kinds(events)).toEqual(["loading", "accepted", "restored", "loaded"]);
    expect(events[2]).toMatchObject({ running: before, error: "Error: the module would not start" });
    expect(machine.current()).toBe(before);
    expect((await machine.load(sensors("a", "c"), "f")).outcome).toBe("applied");
  });

  it("follow loads handed in together one after another, each judged against the one before it", async () => {
    const test = testModules();
    const { machine, events } = start(test.modules);
    test.holdNext();
    const first = machine.load(sensors("a"), "one");
    const second = machine.load(sensors("a", "b"), "two");
    await Promise.resolve();
    test.release();
    expect((await first).outcome).toBe("applied");
    expect((await second).outcome).toBe("applied");
    expect(events.map((e) => `${e.kind} ${e.origin}`)).toEqual([
      "loading one", "accepted one", "loaded one",
      "loading two", "accepted two", "loaded two",
    ]);
    const [, firstTaken, , , secondTaken] = events as Array<Extract<ConfigEvent, { kind: "accepted" }>>;
    expect(secondTaken!.previous).toBe(firstTaken!.running);
  });
});

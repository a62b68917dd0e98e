// The graph's side of remotes (core/graph, engine.join): resources another part serves are joined
// beside the configured ones and built as stand-ins by the model their entry names; local
// resources depend on them by `remote:name` or by their simple name; one that becomes
// unavailable is held with the reason while its dependents wait saying so, and both come back
// when it is available again; a configured resource keeps its simple name over a joined one, two
// joined ones share theirs with nobody, and what a source stops joining is removed. The test
// machine's recording model checks the engine's promises (dependencies READY at build,
// dependents closed first) throughout.
import { describe, expect, it } from "vitest";
import type { ResourceConfig } from "../../core/config/index.js";
import type { JoinedResource } from "../../core/graph/index.js";
import { cfg, createTestMachine, machine, TEST_MODEL } from "../graph/test-machine.js";

const sensor = "rdk:component:sensor";
const motor = "rdk:component:motor";

const joined = (api: string, name: string, unavailable?: string): JoinedResource => {
  const config: ResourceConfig = { name, api, model: TEST_MODEL, attributes: {}, depends_on: [] };
  return unavailable === undefined ? { config } : { config, unavailable };
};

async function settled(m: ReturnType<typeof createTestMachine>): Promise<void> {
  await m.clock.settle();
  await m.engine.whenIdle();
}

describe("resources joined from another part", () => {
  it("are built beside the configured ones, found by remote:name and by their simple name", async () => {
    const m = createTestMachine();
    m.engine.join("remotes.pi", [joined(sensor, "pi:temp"), joined(motor, "pi:arm-pi:left")]);
    await m.engine.apply(
      machine([cfg("motor", "m", { depends_on: ["pi:temp"] }), cfg("sensor", "s", { depends_on: ["left"] }), cfg("sensor", "f", { depends_on: [`${sensor}/temp`] })]),
    );
    expect(m.snapshot()).toEqual({
      [`${motor}/m`]: "READY",
      [`${motor}/pi:arm-pi:left`]: "READY",
      [`${sensor}/f`]: "READY",
      [`${sensor}/pi:temp`]: "READY",
      [`${sensor}/s`]: "READY",
    });
    expect(m.journal.live.get(`${motor}/m`)!.deps.has(`${sensor}/pi:temp`)).toBe(true);
    expect(m.engine.resource("temp")).toBe(m.journal.live.get(`${sensor}/pi:temp`));
    expect(m.engine.resource(`${sensor}/temp`)).toBe(m.journal.live.get(`${sensor}/pi:temp`));
    expect(m.engine.resource(`${sensor}/pi:temp`)).toBe(m.journal.live.get(`${sensor}/pi:temp`));
    expect(m.journal.violations).toEqual([]);
  });

  it("joined before or after the first configuration alike, and planned again when they change", async () => {
    const m = createTestMachine();
    await m.engine.apply(machine([cfg("motor", "m", { depends_on: ["pi:temp"] })]));
    expect(m.snapshot()[`${motor}/m`]).toBe('UNCONFIGURED: missing dependency "pi:temp": no such resource is configured or listed by a remote');
    m.engine.join("remotes.pi", [joined(sensor, "pi:temp")]);
    await settled(m);
    expect(m.snapshot()).toEqual({ [`${motor}/m`]: "READY", [`${sensor}/pi:temp`]: "READY" });
  });

  it("held with the reason while unavailable, their dependents waiting and saying why, both back when available", async () => {
    const m = createTestMachine();
    m.engine.join("remotes.pi", [joined(sensor, "pi:temp")]);
    await m.engine.apply(machine([cfg("motor", "m", { depends_on: ["pi:temp"] }), cfg("sensor", "mine")]));
    const before = m.journal.live.get(`${motor}/m`)!;
    m.engine.join("remotes.pi", [joined(sensor, "pi:temp", "remote pi is unavailable: connection refused")]);
    await settled(m);
    expect(m.snapshot()).toEqual({
      [`${motor}/m`]: `UNCONFIGURED: waiting for dependency ${sensor}/pi:temp (UNHEALTHY: remote pi is unavailable: connection refused)`,
      [`${sensor}/mine`]: "READY",
      [`${sensor}/pi:temp`]: "UNHEALTHY: remote pi is unavailable: connection refused",
    });
    expect(before.closed).toBe(true);
    m.engine.join("remotes.pi", [joined(sensor, "pi:temp")]);
    await settled(m);
    expect(m.snapshot()).toEqual({ [`${motor}/m`]: "READY", [`${sensor}/mine`]: "READY", [`${sensor}/pi:temp`]: "READY" });
    expect(m.journal.violations).toEqual([]);
  });

  it("leave their problems to whoever joined them: the log names only the local resources that wait", async () => {
    const m = createTestMachine();
    m.engine.join("remotes.pi", [joined(sensor, "pi:a", "remote pi is unavailable: gone"), joined(sensor, "pi:b", "remote pi is unavailable: gone")]);
    await m.engine.apply(machine([cfg("motor", "m", { depends_on: ["pi:a"] })]));
    await m.clock.advance(10_000);
    const said = m.logs.filter((l) => l.level === "warn" || l.level === "error").map((l) => l.message);
    expect(said).toEqual([`${motor}/m: waiting for dependency ${sensor}/pi:a (UNHEALTHY: remote pi is unavailable: gone)`]);
  });

  it("never take a configured resource's simple name; two joined ones share theirs with nobody", async () => {
    const m = createTestMachine();
    m.engine.join("remotes.pi", [joined(sensor, "pi:temp"), joined(sensor, "pi:hum")]);
    m.engine.join("remotes.lab", [joined(sensor, "lab:hum")]);
    await m.engine.apply(
      machine([cfg("sensor", "temp"), cfg("motor", "uses-temp", { depends_on: ["temp"] }), cfg("motor", "uses-hum", { depends_on: ["hum"] }), cfg("motor", "uses-lab", { depends_on: ["lab:hum"] })]),
    );
    expect(m.journal.live.get(`${motor}/uses-temp`)!.deps.has(`${sensor}/temp`)).toBe(true);
    expect(m.engine.resource("temp")).toBe(m.journal.live.get(`${sensor}/temp`));
    expect(m.snapshot()[`${motor}/uses-hum`]).toBe(
      `UNHEALTHY: dependency "hum" is ambiguous: ${sensor}/pi:hum and ${sensor}/lab:hum both match; write the full name`,
    );
    expect(m.engine.resource("hum")).toBeUndefined();
    expect(m.snapshot()[`${motor}/uses-lab`]).toBe("READY");
  });

  it("are removed when their source joins nothing, their dependents then missing them", async () => {
    const m = createTestMachine();
    m.engine.join("remotes.pi", [joined(sensor, "pi:temp", "remote pi is unavailable: gone")]);
    await m.engine.apply(machine([cfg("motor", "m", { depends_on: ["pi:temp"] })]));
    m.engine.join("remotes.pi", []);
    await settled(m);
    expect(m.snapshot()).toEqual({ [`${motor}/m`]: 'UNCONFIGURED: missing dependency "pi:temp": no such resource is configured or listed by a remote' });
  });
});

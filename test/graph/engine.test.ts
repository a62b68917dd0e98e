import { describe, expect, it } from "vitest";
import { cfg, createTestMachine, machine, registerTestModel, TEST_MODEL } from "./test-machine.js";

const board = "rdk:component:board";
const motor = "rdk:component:motor";
const sensor = "rdk:component:sensor";

describe("bringing a machine up", () => {
  it("builds dependencies first, then turns the machine RUNNING", async () => {
    const m = createTestMachine();
    expect(m.engine.status().state).toBe("INITIALIZING");
    const result = await m.engine.apply(
      machine([cfg("motor", "left", { depends_on: ["b1"] }), cfg("board", "b1"), cfg("sensor", "s1", { depends_on: [`${board}/b1`] })]),
    );
    expect(result.outcome).toBe("applied");
    if (result.outcome === "applied") expect(result.plan.build).toEqual([[`${board}/b1`], [`${motor}/left`, `${sensor}/s1`]]);
    expect(m.journal.builds[0]).toBe(`${board}/b1`);
    expect(m.snapshot()).toEqual({ [`${board}/b1`]: "READY", [`${motor}/left`]: "READY", [`${sensor}/s1`]: "READY" });
    expect(m.engine.status().state).toBe("RUNNING");
    expect(m.events.filter((e) => e.kind === "machine")).toEqual([{ kind: "machine", state: "RUNNING" }]);
    expect(m.journal.violations).toEqual([]);
  });

  it("hands each model its dependencies by the name its configuration wrote, full or simple", async () => {
    const m = createTestMachine();
    await m.engine.apply(machine([cfg("board", "b1"), cfg("motor", "m", { depends_on: ["b1"], attributes: { uses: `${board}/b1` } })]));
    const m1 = m.journal.live.get(`${motor}/m`)!;
    expect([...m1.deps.keys()]).toEqual([`${board}/b1`]);
    expect(m1.deps.get(`${board}/b1`)).toBe(m.journal.live.get(`${board}/b1`));
    expect(m.engine.resource("m")).toBe(m1);
    expect(m.engine.resource(`${motor}/m`)).toBe(m1);
  });

  it("keeps the number of builds at once under the cap", async () => {
    const m = createTestMachine({ buildConcurrency: 3 });
    await m.engine.apply(machine(Array.from({ length: 20 }, (_, i) => cfg("sensor", `s${i}`, { attributes: { yields: 5 } }))));
    expect(m.journal.builds).toHaveLength(20);
    expect(m.journal.maxInFlight).toBe(3);
  });

  it("records a revision and the time of the last change per resource", async () => {
    const m = createTestMachine();
    await m.engine.apply(machine([cfg("board", "b1"), cfg("board", "b2")]), { revision: "r1" });
    await m.clock.advance(5000);
    await m.engine.apply(machine([cfg("board", "b1", { attributes: { v: 2 } }), cfg("board", "b2")]), { revision: "r2" });
    const b1 = m.engine.resourceStatus(`${board}/b1`)!;
    const b2 = m.engine.resourceStatus(`${board}/b2`)!;
    expect(b1.revision).toBe("r2");
    expect(b2.revision).toBe("r1");
    expect(b1.changedAt - b2.changedAt).toBe(5000);
    expect(m.engine.status().revision).toBe("r2");
  });
});

describe("dependencies that cannot be resolved", () => {
  it("leaves a resource with a missing dependency waiting, naming it, and builds it when it appears", async () => {
    const m = createTestMachine();
    await m.engine.apply(machine([cfg("motor", "m", { depends_on: ["b1"] }), cfg("sensor", "s")]));
    expect(m.snapshot()[`${motor}/m`]).toBe('UNCONFIGURED: missing dependency "b1": no such resource is configured');
    expect(m.snapshot()[`${sensor}/s`]).toBe("READY");
    await m.engine.apply(machine([cfg("motor", "m", { depends_on: ["b1"] }), cfg("sensor", "s"), cfg("board", "b1")]));
    expect(m.snapshot()[`${motor}/m`]).toBe("READY");
    expect(m.journal.builds.filter((b) => b === `${sensor}/s`)).toHaveLength(1);
  });

  it("calls an ambiguous simple name an error naming both candidates", async () => {
    const m = createTestMachine();
    await m.engine.apply(machine([cfg("board", "x"), cfg("sensor", "x"), cfg("motor", "m", { depends_on: ["x"] })]));
    expect(m.snapshot()[`${motor}/m`]).toBe(
      `UNHEALTHY: dependency "x" is ambiguous: ${board}/x and ${sensor}/x both match; write the full name`,
    );
    await m.engine.apply(machine([cfg("board", "x"), cfg("sensor", "x"), cfg("motor", "m", { depends_on: [`${sensor}/x`] })]));
    expect(m.snapshot()[`${motor}/m`]).toBe("READY");
  });

  it("holds back only the resources on a cycle, listing it, and builds them once it is broken", async () => {
    const m = createTestMachine();
    const cycle = [
      cfg("board", "a", { depends_on: ["b"] }),
      cfg("motor", "b", { depends_on: ["c"] }),
      cfg("sensor", "c", { depends_on: ["a"] }),
      cfg("sensor", "free"),
      cfg("sensor", "after", { depends_on: ["a"] }),
    ];
    await m.engine.apply(machine(cycle));
    const s = m.snapshot();
    const listed = `dependency cycle: ${board}/a -> ${motor}/b -> ${sensor}/c -> ${board}/a`;
    expect(s[`${board}/a`]).toBe(`UNHEALTHY: ${listed}`);
    expect(s[`${motor}/b`]).toBe(`UNHEALTHY: ${listed}`);
    expect(s[`${sensor}/c`]).toBe(`UNHEALTHY: ${listed}`);
    expect(s[`${sensor}/free`]).toBe("READY");
    expect(s[`${sensor}/after`]).toBe(`UNCONFIGURED: waiting for dependency ${board}/a (UNHEALTHY: ${listed})`);
    cycle[2] = cfg("sensor", "c");
    await m.engine.apply(machine(cycle));
    expect(Object.values(m.snapshot())).toEqual(["READY", "READY", "READY", "READY", "READY"]);
  });

  it("reports a resource depending on itself as a cycle", async () => {
    const m = createTestMachine();
    await m.engine.apply(machine([cfg("board", "a", { depends_on: ["a"] })]));
    expect(m.snapshot()[`${board}/a`]).toBe(`UNHEALTHY: dependency cycle: ${board}/a -> ${board}/a`);
  });

  it("waits for a remote's resource no remote lists, saying so", async () => {
    const m = createTestMachine();
    await m.engine.apply(machine([cfg("motor", "m", { depends_on: ["pi:b1"] })]));
    expect(m.snapshot()[`${motor}/m`]).toBe('UNCONFIGURED: missing dependency "pi:b1": no such resource is configured or listed by a remote');
  });

  it("closes the dependents of a removed resource, names it, and brings them back when it returns", async () => {
    const m = createTestMachine();
    const all = [cfg("board", "b1"), cfg("motor", "m", { depends_on: ["b1"] }), cfg("sensor", "s", { depends_on: ["m"] }), cfg("sensor", "other")];
    await m.engine.apply(machine(all));
    const firstMotor = m.journal.live.get(`${motor}/m`)!;
    await m.engine.apply(machine(all.slice(1)));
    expect(firstMotor.closed).toBe(true);
    expect(m.journal.closes).toEqual([`${sensor}/s`, `${motor}/m`, `${board}/b1`]);
    expect(m.snapshot()).toEqual({
      [`${motor}/m`]: 'UNCONFIGURED: missing dependency "b1": no such resource is configured',
      [`${sensor}/s`]: `UNCONFIGURED: waiting for dependency ${motor}/m (UNCONFIGURED: missing dependency "b1": no such resource is configured)`,
      [`${sensor}/other`]: "READY",
    });
    expect(m.events).toContainEqual({ kind: "resource-removed", name: `${board}/b1` });
    await m.engine.apply(machine(all));
    expect(Object.values(m.snapshot())).toEqual(["READY", "READY", "READY", "READY"]);
    expect(m.journal.builds.filter((b) => b === `${sensor}/other`)).toHaveLength(1);
    expect(m.journal.violations).toEqual([]);
  });
});

describe("changes", () => {
  it("closes a changed resource and its dependents, rebuilds them, and leaves the rest untouched", async () => {
    const m = createTestMachine();
    const conf = (v: number) =>
      machine([
        cfg("board", "b1", { attributes: { v } }),
        cfg("motor", "m", { depends_on: ["b1"] }),
        cfg("board", "b2"),
        cfg("motor", "m2", { depends_on: ["b2"] }),
      ]);
    await m.engine.apply(conf(1));
    const before = m.journal.builds.length;
    const result = await m.engine.apply(conf(2));
    expect(result.outcome === "applied" && result.plan).toMatchObject({
      modified: [`${board}/b1`],
      close: [[`${motor}/m`], [`${board}/b1`]],
      build: [[`${board}/b1`], [`${motor}/m`]],
    });
    expect(m.journal.builds.slice(before)).toEqual([`${board}/b1`, `${motor}/m`]);
    expect(m.journal.violations).toEqual([]);
  });

  it("does not rebuild for a change of log level, key order or depends_on order", async () => {
    const m = createTestMachine();
    await m.engine.apply(machine([cfg("board", "b1"), cfg("board", "b2"), cfg("motor", "m", { depends_on: ["b1", "b2"], attributes: { a: 1, b: { c: 2, d: 3 } } })]));
    const before = m.journal.builds.length;
    await m.engine.apply(
      machine([
        cfg("board", "b1"),
        cfg("board", "b2"),
        cfg("motor", "m", { depends_on: ["b2", "b1"], attributes: { b: { d: 3, c: 2 }, a: 1 }, log_configuration: { level: "debug" } }),
      ]),
    );
    expect(m.journal.builds.length).toBe(before);
  });

  it("applies only the newest of configurations that queue up", async () => {
    const m = createTestMachine();
    const first = m.engine.apply(machine([cfg("board", "b1", { attributes: { yields: 20 } })]));
    const second = m.engine.apply(machine([cfg("board", "b2")]));
    const third = m.engine.apply(machine([cfg("board", "b3")]));
    expect((await second).outcome).toBe("superseded");
    expect((await first).outcome).toBe("applied");
    expect((await third).outcome).toBe("applied");
    expect(Object.keys(m.snapshot())).toEqual([`${board}/b3`]);
  });

  it("uses dependencies a validator finds in the attributes, and reports invalid attributes with their path", async () => {
    const m = createTestMachine();
    await m.engine.apply(
      machine([cfg("board", "b1"), cfg("motor", "m", { attributes: { uses: "b1" } }), cfg("sensor", "bad", { attributes: { invalid: "must be an integer" } })]),
    );
    expect(m.journal.live.get(`${motor}/m`)!.deps.has(`${board}/b1`)).toBe(true);
    expect(m.snapshot()[`${sensor}/bad`]).toBe("UNHEALTHY: invalid configuration: components[2].attributes.invalid: must be an integer");
  });

  it("builds without an optional dependency, and rebuilds with it once it is running", async () => {
    const m = createTestMachine();
    await m.engine.apply(machine([cfg("board", "b1", { attributes: { failTimes: 1 } }), cfg("motor", "m", { attributes: { mayUse: "b1" } })]));
    expect(m.snapshot()[`${motor}/m`]).toBe("READY");
    expect(m.journal.live.get(`${motor}/m`)!.deps.size).toBe(0);
    await m.clock.advance(1000);
    await m.engine.whenIdle();
    expect(m.snapshot()).toEqual({ [`${board}/b1`]: "READY", [`${motor}/m`]: "READY" });
    expect(m.journal.live.get(`${motor}/m`)!.deps.has(`${board}/b1`)).toBe(true);
    expect(m.journal.violations).toEqual([]);
  });

  it("reports entries it cannot name, and runs the rest", async () => {
    const m = createTestMachine();
    const result = await m.engine.apply(machine([cfg("board", "b 1"), cfg("board", "b2"), cfg("board", "b2", { attributes: { v: 2 } })]));
    expect(result.outcome === "applied" && result.plan.rejected).toEqual([
      { path: "components[0].name", error: '"b 1": a name may contain only letters, digits, "_" and "-"' },
      { path: "components[2]", error: `${board}/b2 is configured twice; the entry at components[1] is used` },
    ]);
    expect(m.snapshot()).toEqual({ [`${board}/b2`]: "READY" });
  });
});

describe("failures and retries", () => {
  it("marks a failed build UNHEALTHY and retries it after 1, 2, 4 s, then its waiting dependents at once", async () => {
    const m = createTestMachine();
    m.journal.failures.set(`${board}/b1`, 3);
    await m.engine.apply(machine([cfg("board", "b1"), cfg("motor", "m", { depends_on: ["b1"] })]));
    expect(m.snapshot()).toEqual({
      [`${board}/b1`]: "UNHEALTHY: building failed: attempt failed (3 left)",
      [`${motor}/m`]: `UNCONFIGURED: waiting for dependency ${board}/b1 (UNHEALTHY: building failed: attempt failed (3 left))`,
    });
    const attempts = () => m.journal.builds.filter((b) => b === `${board}/b1`).length;
    await m.clock.advance(999);
    expect(attempts()).toBe(1);
    await m.clock.advance(1);
    expect(attempts()).toBe(2);
    await m.clock.advance(2000);
    expect(attempts()).toBe(3);
    await m.clock.advance(3999);
    expect(attempts()).toBe(3);
    await m.clock.advance(1);
    await m.engine.whenIdle();
    expect(attempts()).toBe(4);
    expect(m.snapshot()).toEqual({ [`${board}/b1`]: "READY", [`${motor}/m`]: "READY" });
  });

  it("caps the backoff at 60 s", async () => {
    const m = createTestMachine();
    await m.engine.apply(machine([cfg("board", "b1", { attributes: { fail: "no bus" } })]));
    const attempts = () => m.journal.builds.length;
    // 1 + 2 + 4 + 8 + 16 + 32 = 63 s for six retries; then one every 60 s.
    await m.clock.advance(63_000);
    expect(attempts()).toBe(7);
    await m.clock.advance(59_999);
    expect(attempts()).toBe(7);
    await m.clock.advance(1);
    expect(attempts()).toBe(8);
    await m.clock.advance(60_000);
    expect(attempts()).toBe(9);
  });

  it("retries a waiting resource at once when its dependency changes", async () => {
    const m = createTestMachine();
    await m.engine.apply(machine([cfg("board", "b1", { attributes: { fail: "no bus" } }), cfg("motor", "m", { depends_on: ["b1"] })]));
    expect(m.snapshot()[`${motor}/m`]).toMatch(/^UNCONFIGURED: waiting for dependency/);
    await m.engine.apply(machine([cfg("board", "b1"), cfg("motor", "m", { depends_on: ["b1"] })]));
    expect(m.snapshot()).toEqual({ [`${board}/b1`]: "READY", [`${motor}/m`]: "READY" });
  });

  it("marks a build that overruns its timeout UNHEALTHY without holding up the rest, and closes it if it arrives late", async () => {
    const m = createTestMachine();
    const applied = m.engine.apply(
      machine([cfg("board", "slow", { attributes: { hang: true } }), cfg("board", "quick"), cfg("motor", "m", { depends_on: ["quick"] })]),
    );
    await m.clock.settle();
    // The slow build holds back only what depends on it: the next level goes ahead.
    expect(m.engine.resourceStatus(`${board}/quick`)!.state).toBe("READY");
    expect(m.engine.resourceStatus(`${motor}/m`)!.state).toBe("READY");
    expect(m.engine.resourceStatus(`${board}/slow`)!.state).toBe("CONFIGURING");
    expect(m.engine.status().state).toBe("INITIALIZING");
    await m.clock.advance(119_999);
    expect(m.engine.resourceStatus(`${board}/slow`)!.state).toBe("CONFIGURING");
    await m.clock.advance(1);
    await applied;
    expect(m.snapshot()).toEqual({
      [`${board}/slow`]: "UNHEALTHY: building timed out after 120000 ms",
      [`${board}/quick`]: "READY",
      [`${motor}/m`]: "READY",
    });
    expect(m.engine.status().state).toBe("RUNNING");
    for (const release of m.journal.hanging.get(`${board}/slow`)!) release();
    await m.clock.settle();
    expect(m.journal.closes).toEqual([`${board}/slow`]);
    expect(m.engine.resource(`${board}/slow`)).toBeUndefined();
  });

  it("takes the build timeout from its options", async () => {
    const m = createTestMachine({ buildTimeoutMs: 50 });
    const applied = m.engine.apply(machine([cfg("board", "slow", { attributes: { hang: true } })]));
    await m.clock.advance(50);
    await applied;
    expect(m.snapshot()[`${board}/slow`]).toBe("UNHEALTHY: building timed out after 50 ms");
  });
});

describe("models that come and go", () => {
  it("waits for an unknown model, naming API and model, builds when it is registered, and closes when it goes", async () => {
    const m = createTestMachine();
    const later = "acme:motors:stepper";
    await m.engine.apply(machine([cfg("board", "b1"), cfg("motor", "m", { model: later, depends_on: ["b1"] }), cfg("sensor", "s", { depends_on: ["m"] })]));
    expect(m.snapshot()[`${motor}/m`]).toBe(`UNCONFIGURED: no model ${later} is registered for API ${motor}; waiting for it to be registered`);
    const unregister = registerTestModel(m.registry, m.journal, () => m.engine, motor, later);
    await m.engine.whenIdle();
    expect(m.snapshot()).toEqual({ [`${board}/b1`]: "READY", [`${motor}/m`]: "READY", [`${sensor}/s`]: "READY" });
    unregister();
    await m.engine.whenIdle();
    expect(m.snapshot()[`${motor}/m`]).toBe(`UNCONFIGURED: no model ${later} is registered for API ${motor}; waiting for it to be registered`);
    expect(m.journal.closes).toEqual([`${sensor}/s`, `${motor}/m`]);
    expect(m.journal.violations).toEqual([]);
  });

  it("lists models sorted with their attribute schemas", () => {
    const m = createTestMachine();
    expect(m.registry.list().map((r) => `${r.api} ${r.model}`)).toEqual([
      `rdk:component:board ${TEST_MODEL}`,
      `rdk:component:motor ${TEST_MODEL}`,
      `rdk:component:sensor ${TEST_MODEL}`,
      `rdk:service:generic ${TEST_MODEL}`,
    ]);
    expect(m.registry.list()[0]!.attributesSchema).toEqual({ type: "object", properties: { fail: { type: "string" } } });
  });
});

describe("shutdown", () => {
  it("closes dependents first, each once, and reports a hung or failing close without waiting on it", async () => {
    const m = createTestMachine({ closeTimeoutMs: 1000 });
    await m.engine.apply(
      machine([
        cfg("board", "b1", { attributes: { closeHang: true } }),
        cfg("motor", "m", { depends_on: ["b1"], attributes: { closeFail: true } }),
        cfg("sensor", "s", { depends_on: ["m"] }),
        cfg("sensor", "t"),
      ]),
    );
    const closing = m.engine.close();
    await m.clock.advance(1000);
    const report = await closing;
    expect(report.closed.sort()).toEqual([`${sensor}/s`, `${sensor}/t`]);
    expect(report.failed).toEqual([{ name: `${motor}/m`, error: "close failed" }]);
    expect(report.hung).toEqual([`${board}/b1`]);
    expect(m.journal.closes.indexOf(`${sensor}/s`)).toBeLessThan(m.journal.closes.indexOf(`${motor}/m`));
    expect(m.journal.closes.indexOf(`${motor}/m`)).toBeLessThan(m.journal.closes.indexOf(`${board}/b1`));
    expect(m.logs).toContainEqual({ level: "error", message: `closing ${board}/b1 did not finish within 1000 ms; skipped` });
    expect(await m.engine.close()).toBe(report);
    expect(m.journal.violations).toEqual([]);
    expect((await m.engine.apply(machine([]))).outcome).toBe("closed");
  });

  it("stops retrying once shut down", async () => {
    const m = createTestMachine();
    await m.engine.apply(machine([cfg("board", "b1", { attributes: { fail: "no bus" } })]));
    await m.engine.close();
    await m.clock.advance(120_000);
    expect(m.journal.builds).toHaveLength(1);
    expect(m.clock.pending()).toBe(0);
  });
});

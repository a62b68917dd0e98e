import { describe, expect, it } from "vitest";
import { checkMaintenance, createMaintenanceGate, type MaintenanceDecision } from "../../core/graph/index.js";
import type { Resource } from "../../core/resource/index.js";
import { createFakeClock } from "./fake-clock.js";
import { cfg, collectingLogger, createTestMachine, machine, type LogLine } from "./test-machine.js";

const sensorName = "rdk:component:sensor/window";
const maintenance = { sensor_name: sensorName, maintenance_allowed_key: "ok" };

function sensor(read: () => Promise<Record<string, unknown>>): Resource {
  return { name: { namespace: "rdk", type: "component", subtype: "sensor", name: "window" }, close: async () => undefined, getReadings: read } as Resource;
}

describe("asking the maintenance sensor", () => {
  const clock = createFakeClock();
  const ask = (resource: Resource | undefined) => checkMaintenance(maintenance, (name) => (name === sensorName ? resource : undefined), clock);

  it("allows when the key is boolean true", async () => {
    expect(await ask(sensor(async () => ({ ok: true })))).toEqual({ allowed: true });
  });

  it("refuses anything else, saying what it read", async () => {
    expect(await ask(sensor(async () => ({ ok: false })))).toEqual({ allowed: false, reason: `maintenance sensor ${sensorName} reports ok = false` });
    expect(await ask(sensor(async () => ({ ok: "true" })))).toEqual({ allowed: false, reason: `maintenance sensor ${sensorName} reports ok = "true"` });
    expect(await ask(sensor(async () => ({})))).toEqual({ allowed: false, reason: `the reading of maintenance sensor ${sensorName} has no key "ok"` });
  });

  it("allows with a warning when the sensor is not running", async () => {
    expect(await ask(undefined)).toEqual({
      allowed: true,
      warning: `maintenance sensor ${sensorName} is not running; applying the configuration without its consent`,
    });
  });

  it("refuses when the read fails or does not answer", async () => {
    expect(await ask(sensor(async () => Promise.reject(new Error("i2c timeout"))))).toEqual({
      allowed: false,
      reason: `reading maintenance sensor ${sensorName} failed: i2c timeout`,
    });
    const hung = ask(sensor(() => new Promise(() => undefined)));
    await clock.advance(5000);
    expect(await hung).toEqual({ allowed: false, reason: `reading maintenance sensor ${sensorName} failed: no answer within 5000 ms` });
  });
});

describe("the maintenance gate", () => {
  function gate() {
    const clock = createFakeClock();
    const logs: LogLine[] = [];
    const released: string[] = [];
    let answer: MaintenanceDecision = { allowed: false, reason: "busy" };
    let asked = 0;
    const g = createMaintenanceGate<string>({
      clock,
      logger: collectingLogger(logs),
      check: async () => {
        asked++;
        return answer;
      },
      release: (item) => released.push(item),
    });
    return { g, clock, logs, released, set: (a: MaintenanceDecision) => (answer = a), asked: () => asked };
  }

  it("lets a configuration through at once when allowed, or when no maintenance is configured", async () => {
    const t = gate();
    t.set({ allowed: true });
    expect(await t.g.submit("a", maintenance)).toEqual({ kind: "allowed" });
    t.set({ allowed: false, reason: "busy" });
    expect(await t.g.submit("b", undefined)).toEqual({ kind: "allowed" });
    expect(t.asked()).toBe(1);
  });

  it("defers when denied, logs it once, re-checks every 5 s and releases the newest once allowed", async () => {
    const t = gate();
    expect(await t.g.submit("a", maintenance)).toEqual({ kind: "deferred", reason: "busy" });
    expect(t.g.deferred).toBe(true);
    await t.clock.advance(15_000);
    expect(t.asked()).toBe(4);
    expect(await t.g.submit("b", maintenance)).toEqual({ kind: "deferred", reason: "busy" });
    expect(t.logs.filter((l) => l.level === "info")).toEqual([{ level: "info", message: "configuration change deferred until maintenance is allowed: busy" }]);
    t.set({ allowed: true });
    await t.clock.advance(5000);
    expect(t.released).toEqual(["b"]);
    expect(t.g.deferred).toBe(false);
    await t.clock.advance(60_000);
    expect(t.released).toEqual(["b"]);
  });

  it("drops a deferred configuration when a newer one needs no window", async () => {
    const t = gate();
    await t.g.submit("a", maintenance);
    expect(await t.g.submit("b", undefined)).toEqual({ kind: "allowed" });
    t.set({ allowed: true });
    await t.clock.advance(60_000);
    expect(t.released).toEqual([]);
  });
});

describe("the maintenance window in the engine", () => {
  const window = (allowed: unknown) => () => ({ ok: allowed });

  it("never gates start-up, then defers changes until the sensor allows them", async () => {
    const m = createTestMachine();
    m.journal.readings.set(sensorName, window(false));
    const conf = (v: number) => machine([cfg("sensor", "window"), cfg("board", "b1", { attributes: { v } })], { maintenance });
    expect((await m.engine.apply(conf(1))).outcome).toBe("applied");
    const deferred = await m.engine.apply(conf(2));
    expect(deferred).toEqual({ outcome: "deferred", reason: `maintenance sensor ${sensorName} reports ok = false` });
    expect(m.engine.status().deferred).toBe(true);
    expect(await m.engine.checkMaintenance()).toEqual({ allowed: false, reason: `maintenance sensor ${sensorName} reports ok = false` });
    expect(m.events).toContainEqual({ kind: "deferred", reason: `maintenance sensor ${sensorName} reports ok = false` });
    // The newest deferred configuration is the one applied.
    await m.engine.apply(conf(3));
    await m.clock.advance(20_000);
    expect(m.journal.live.get("rdk:component:board/b1")!.name).toBeDefined();
    expect(m.journal.builds.filter((b) => b.endsWith("/b1"))).toHaveLength(1);
    m.journal.readings.set(sensorName, window(true));
    await m.clock.advance(5000);
    await m.engine.whenIdle();
    expect(m.journal.builds.filter((b) => b.endsWith("/b1"))).toHaveLength(2);
    expect(m.engine.resourceStatus("rdk:component:board/b1")!.revision).toBe("3");
    expect(m.engine.status().deferred).toBe(false);
    expect(m.logs.filter((l) => l.message.startsWith("configuration change deferred"))).toHaveLength(1);
  });

  it("applies with a warning when the sensor is missing, and blocks while its read fails", async () => {
    const m = createTestMachine();
    await m.engine.apply(machine([cfg("board", "b1")], { maintenance }));
    expect((await m.engine.apply(machine([cfg("board", "b2")], { maintenance }))).outcome).toBe("applied");
    expect(m.logs).toContainEqual({ level: "warn", message: `maintenance sensor ${sensorName} is not running; applying the configuration without its consent` });

    m.journal.readings.set(sensorName, () => {
      throw new Error("bus error");
    });
    await m.engine.apply(machine([cfg("sensor", "window"), cfg("board", "b2")]));
    const result = await m.engine.apply(machine([cfg("sensor", "window"), cfg("board", "b3")], { maintenance }));
    expect(result).toEqual({ outcome: "deferred", reason: `reading maintenance sensor ${sensorName} failed: bus error` });
    await m.clock.advance(30_000);
    expect(m.engine.resourceStatus("rdk:component:board/b3")).toBeUndefined();
    m.journal.readings.set(sensorName, window(true));
    await m.clock.advance(5000);
    await m.engine.whenIdle();
    expect(m.engine.resourceStatus("rdk:component:board/b3")!.state).toBe("READY");
  });
});

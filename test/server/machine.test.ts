// The machine follows its configuration: runs what is valid, applies edits, refuses broken ones.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createCollectingSink, createLogEngine } from "../../core/index.js";
import { createNodeClock } from "../../targets/linux/logging/index.js";
import type { Machine } from "../../core/index.js";
import { createLinuxMachine as createMachine, type LinuxMachineOptions as MachineOptions } from "../../targets/linux/server/linux-machine.js";

const simMachine = JSON.parse(readFileSync(join(import.meta.dirname, "../../examples/sim-machine.json"), "utf8"));

let machine: Machine | undefined;
afterEach(async () => {
  await machine?.close();
  machine = undefined;
});

function start(revealSecrets = false, screen?: MachineOptions["screen"]) {
  const sink = createCollectingSink();
  const logEngine = createLogEngine({ clock: createNodeClock(), sink });
  machine = createMachine({ logEngine, clock: createNodeClock(), revealSecrets, screen });
  const messages = () => sink.entries.map((e) => e.message);
  return { machine, sink, messages };
}

const states = (m: Machine) => Object.fromEntries(m.engine.status().resources.map((r) => [r.name, r.state]));

describe("the machine", () => {
  it("brings up the simulated machine, every resource READY and the machine RUNNING", async () => {
    const { machine } = start();
    expect((await machine.load(simMachine, "sim")).outcome).toBe("applied");
    expect(machine.engine.status().state).toBe("RUNNING");
    expect(Object.values(states(machine)).every((s) => s === "READY")).toBe(true);
    expect(Object.keys(states(machine))).toContain("rdk:component:motor/left");
  });

  it("runs the valid part of a first configuration and reports the bad entry", async () => {
    const { machine, sink } = start();
    const config = { components: [{ name: "ok", api: "rdk:component:sensor", model: "fake" }, { name: "bad name", api: "rdk:component:sensor", model: "fake" }] };
    expect((await machine.load(config, "file.json")).outcome).toBe("applied");
    expect(states(machine)).toEqual({ "rdk:component:sensor/ok": "READY" });
    expect(sink.entries.some((e) => e.level === "error" && e.fields.path === "components[1].name")).toBe(true);
  });

  it("refuses an edit that brings new errors and keeps running as it was", async () => {
    const { machine, messages } = start();
    await machine.load(simMachine, "sim");
    const before = machine.engine.status().resources;
    const broken = { ...simMachine, components: [...simMachine.components.slice(1), { name: "temp", api: "rdk:component:sensor" }] };
    const result = await machine.load(broken, "sim");
    expect(result.outcome).toBe("refused");
    expect(machine.engine.status().resources).toEqual(before);
    expect(machine.lastRefusal()?.reason).toMatch(/components\[8\]/);
    expect(messages()).toContain("configuration refused; the machine keeps running as it was");
    const unparseable = await machine.load("{ not json", "sim");
    expect(unparseable.outcome).toBe("refused");
    expect(machine.engine.status().resources).toEqual(before);
  });

  it("applies an edit, touching only what changed, and ignores the same bytes again", async () => {
    const { machine, messages } = start();
    const text = JSON.stringify(simMachine);
    await machine.load(text, "sim");
    expect((await machine.load(text, "sim")).outcome).toBe("unchanged");
    const edited = JSON.parse(text);
    edited.components.find((c: { name: string }) => c.name === "temp").attributes = { readings: { t: 21 } };
    const result = await machine.load(JSON.stringify(edited), "sim");
    expect(result.outcome).toBe("applied");
    if (result.outcome === "applied") expect(result.plan.build.flat()).toEqual(["rdk:component:sensor/temp"]);
    expect(messages().some((m) => m.startsWith('config change: components["temp"].attributes.readings'))).toBe(true);
  });

  it("does not let an error that was already there block other edits", async () => {
    const { machine } = start();
    const base = { components: [{ name: "a", api: "rdk:component:sensor", model: "fake" }, { name: "b!", api: "rdk:component:sensor", model: "fake" }] };
    await machine.load(base, "f");
    const edited = { components: [...base.components, { name: "c", api: "rdk:component:sensor", model: "fake" }] };
    expect((await machine.load(edited, "f")).outcome).toBe("applied");
    expect(Object.keys(states(machine)).sort()).toEqual(["rdk:component:sensor/a", "rdk:component:sensor/c"]);
  });

  it("logs one line for a removed component and one for an added one, by name", async () => {
    const { machine, messages } = start();
    const sensors = (names: string[]) => ({ components: names.map((name) => ({ name, api: "rdk:component:sensor", model: "fake" })) });
    await machine.load(sensors(["a", "b", "c", "added1", "added2", "d", "e"]), "f");
    await machine.load(sensors(["a", "b", "c", "added2", "d", "e", "f"]), "f");
    const diff = messages().filter((m) => m.startsWith("config change:"));
    expect(diff).toHaveLength(2);
    expect(diff[0]).toMatch(/^config change: components\["added1"\]: \{"name":"added1",.*\} -> \(absent\)$/);
    expect(diff[1]).toMatch(/^config change: components\["f"\]: \(absent\) -> \{"name":"f",.*\}$/);
  });

  it("ends only the load that throws: the machine keeps running as it was, and later loads apply", async () => {
    const { machine, sink } = start(false, (config) => {
      if (config.components.some((c) => c.name === "boom")) throw new RangeError("Maximum call stack size exceeded");
      return { config, issues: [] };
    });
    const sensors = (...names: string[]) => ({ components: names.map((name) => ({ name, api: "rdk:component:sensor", model: "fake" })) });
    await machine.load(sensors("a"), "f");
    const before = machine.engine.status().resources;

    expect(await machine.load(sensors("a", "boom"), "f")).toMatchObject({
      outcome: "refused",
      reason: "cannot be applied: RangeError: Maximum call stack size exceeded",
    });
    expect(machine.engine.status().resources).toEqual(before);
    expect(sink.entries.find((e) => e.message === "configuration refused; the machine keeps running as it was")?.fields.reason).toMatch(/RangeError/);

    expect((await machine.load(sensors("a", "b"), "f")).outcome).toBe("applied");
    expect((await machine.load(sensors("a"), "f")).outcome).toBe("applied");
    expect(Object.keys(states(machine))).toEqual(["rdk:component:sensor/a"]);
  });

  it("logs configuration diffs with secrets masked, unless told to reveal them", async () => {
    for (const reveal of [false, true]) {
      const { machine, messages } = start(reveal);
      const keys = (key: string) => ({ auth: { handlers: [{ type: "api-key", config: { k1: key } }] } });
      await machine.load(keys("first-secret-value"), "f");
      await machine.load(keys("second-secret-value"), "f");
      const diff = messages().filter((m) => m.startsWith("config change:"));
      expect(diff).toHaveLength(1);
      expect(diff[0]!.includes("second-secret-value")).toBe(reveal);
      await machine.close();
    }
  });
});

// The MCU bundle held as a device's firmware holds it (preloaded: functions, the collections
// made at load and the built-in prototypes frozen; see preloaded-bundle.ts) boots from its
// configuration, takes a new one in place and answers calls. Code that writes to what a device
// keeps in flash (a property on a function, an entry in a module-level Map or WeakMap, a
// module-level object as a WeakMap key) fails here as it fails on the device, with the same
// TypeError, where the plain xsnap tests would pass.
import { fromBinary, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GetReadingsRequestSchema, GetReadingsResponseSchema } from "../../proto/gen/common/v1/common_pb.js";
import { ResourceNamesRequestSchema, ResourceNamesResponseSchema } from "../../proto/gen/robot/v1/robot_pb.js";
import { COMMAND_REQUEST } from "../../targets/mcu/host-protocol.js";
import type { ConfigReport } from "../../targets/mcu/svc-mcu.js";
import { createWorkerLink, type WorkerLink } from "../../tools/mcu-shim/worker-link.js";
import { XsWorker } from "../../tools/xs/xs-worker.js";
import { parse, request } from "../mcu/grpc-web-body.js";
import { currentPreloadScripts, preloadScripts } from "./preloaded-bundle.js";

const sensor = (name: string, readings: Record<string, unknown>) => ({ name, api: "rdk:component:sensor", model: "fake", attributes: { readings } });
const first = {
  components: [sensor("temp", { celsius: 20 }), { name: "pins", api: "rdk:component:board", model: "fake", attributes: {} }],
};
const second = { components: [sensor("temp", { celsius: 25 }), sensor("humid", { percent: 40 })] };

interface Held {
  worker: XsWorker;
  link: WorkerLink;
  /** Objects reachable from the module's bindings, now held as flash holds them. */
  held: number;
}

const text = (expression: string) => `new TextEncoder().encode(String(${expression})).buffer`;

async function holdBundle(scripts: { prelude: string; bundle: string }, install = true): Promise<Held> {
  const worker = new XsWorker();
  const link = createWorkerLink({ worker, now: () => 1_800_000_000_000 });
  try {
    await worker.evaluate(scripts.prelude);
    await worker.evaluate(`globalThis.heldCount = ${scripts.bundle}`);
    const { reply } = await worker.evaluate(text("globalThis.heldCount"));
    if (install) await worker.evaluate(`globalThis.svcMcu.installXsnapHost({});`);
    return { worker, link, held: Number(reply || 0) };
  } catch (error) {
    link.close();
    await worker.close();
    throw error;
  }
}

async function call<I extends DescMessage, O extends DescMessage>(
  link: WorkerLink,
  method: string,
  input: I,
  init: object,
  output: O,
): Promise<MessageShape<O>> {
  const { done } = link.exchange((id) => ({
    kind: COMMAND_REQUEST,
    now: 1_800_000_000_000,
    id,
    method: "POST",
    path: `/${method}`,
    headers: [["content-type", "application/grpc-web+proto"]],
    peer: "127.0.0.1",
    bodyDropped: false,
    entropy: new Uint8Array(32),
    body: request(input, init),
  }));
  const answer = await done;
  const { message, status, text } = parse(answer.body);
  if (status !== 0 || !message) throw new Error(`${method}: status ${status}: ${text}`);
  return fromBinary(output, message);
}

const readings = async (link: WorkerLink, name: string) => {
  const answer = await call(link, "viam.component.sensor.v1.SensorService/GetReadings", GetReadingsRequestSchema, { name }, GetReadingsResponseSchema);
  return Object.fromEntries(Object.entries(answer.readings).map(([k, v]) => [k, v.kind.value]));
};

describe("the MCU bundle held as a preloaded firmware holds it", () => {
  let device: Held;
  beforeAll(async () => {
    device = await holdBundle(await currentPreloadScripts());
  });
  afterAll(async () => {
    device?.link.close();
    await device?.worker.close();
  });

  it("holds the module's functions and collections as flash does", () => {
    expect(device.held).toBeGreaterThan(1_000);
  });

  it("boots from its configuration, reconfigures in place and serves calls", async () => {
    const boot: ConfigReport = await device.link.pushConfig(first);
    expect(boot.outcome).toBe("applied");
    expect(await readings(device.link, "temp")).toEqual({ celsius: 20 });

    const report = await device.link.pushConfig(second);
    expect(report).toMatchObject({
      outcome: "applied",
      added: ["rdk:component:sensor/humid"],
      modified: ["rdk:component:sensor/temp"],
      removed: ["rdk:component:board/pins"],
    });
    const names = await call(device.link, "viam.robot.v1.RobotService/ResourceNames", ResourceNamesRequestSchema, {}, ResourceNamesResponseSchema);
    expect(names.resources.map((r) => `${r.type}:${r.subtype}/${r.name}`).sort()).toEqual(["component:sensor/humid", "component:sensor/temp"]);
    expect(await readings(device.link, "temp")).toEqual({ celsius: 25 });
    expect(await readings(device.link, "humid")).toEqual({ percent: 40 });
  });

  it("answers a call that fails with its status, built-in prototypes frozen", async () => {
    await expect(readings(device.link, "nowhere")).rejects.toThrow(/status 5: .*nowhere/);
    await expect(call(device.link, "viam.robot.v1.RobotService/Nothing", ResourceNamesRequestSchema, {}, ResourceNamesResponseSchema)).rejects.toThrow(/status 12/);
  });

  it("refuses a broken configuration and keeps running as it was", async () => {
    const report = await device.link.pushConfig({ components: [{ name: "temp", api: "rdk:component:sensor" }] });
    expect(report.outcome).toBe("refused");
    expect(await readings(device.link, "temp")).toEqual({ celsius: 25 });
  });
});

describe("the preloaded holding itself", () => {
  // What a device refuses, shown on a small module of the same shape as the bundle.
  const module = (body: string) => `${body}\nexport{probe};`;

  it.each([
    ["a property written on a module's function", "function check(){} function probe(){ check.errors = []; }", /not extensible|read-?only/],
    ["an entry set in a module-level Map", "var seen = new Map(); function probe(){ seen.set(1, 2); }", /read-only Map/],
    ["a module-level object as a WeakMap key", "var schema = {a: 1}; function probe(){ new WeakMap().set(schema, 1); }", /key: read-only/],
    ["a built-in prototype patched", "function probe(){ Array.prototype.last = 1; }", /not extensible|read-?only/],
  ])("fails on %s, as the device does", async (_what, body, error) => {
    const held = await holdBundle(preloadScripts(module(body)), false);
    try {
      await expect(held.worker.evaluate(`globalThis.svcMcu.probe()`)).rejects.toThrow(error);
    } finally {
      held.link.close();
      await held.worker.close();
    }
  });

  it("leaves writable what a device copies to RAM: plain objects, arrays and new collections", async () => {
    const body = "var counts = {n: 0}; var list = []; function probe(){ counts.n++; list.push(counts.n); const m = new Map([[1, 2]]); m.set(3, 4); new WeakMap().set({}, 1); return list.length + m.size; }";
    const held = await holdBundle(preloadScripts(module(body)), false);
    try {
      expect((await held.worker.evaluate(text("globalThis.svcMcu.probe()"))).reply).toBe("3");
    } finally {
      held.link.close();
      await held.worker.close();
    }
  });
});

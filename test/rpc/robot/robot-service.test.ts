// The RobotService handlers over a real graph engine with the built-in models on a simulated
// board: what ResourceNames, ResourceRPCSubtypes, GetMachineStatus, StopAll, GetCloudMetadata,
// GetVersion and Shutdown answer, called as a transport would call them.
import { create } from "@bufbuild/protobuf";
import { afterEach, describe, expect, it } from "vitest";
import {
  Code,
  createCallRunner,
  createGraphEngine,
  createGraphRobotParts,
  createManualClock,
  createModelRegistry,
  createOperations,
  createRobotService,
  createSessions,
  frameSystemOf,
  registerBuiltinModels,
  uuidFrom,
  type CloudMetadata,
  type GraphEngine,
  type ModelRegistration,
  type Motor,
  type ResourceConfig,
} from "../../../core/index.js";
import { createSimBoard } from "../../../hal/sim/index.js";
import * as pb from "../../../proto/gen/robot/v1/robot_pb.js";
import { protoServiceOf } from "../../../core/rpc/index.js";
import { componentServiceApis } from "../../../targets/linux/server/rpc/index.js";

const motor = (name: string, attributes: Record<string, unknown> = {}, model = "rdk:builtin:fake"): ResourceConfig => ({
  name,
  api: "rdk:component:motor",
  model,
  attributes,
  depends_on: [],
});
const sensor = (name: string): ResourceConfig => ({ name, api: "rdk:component:sensor", model: "rdk:builtin:fake", attributes: {}, depends_on: [] });

// A motor whose driver no longer answers: stopping it fails.
const stuckMotor: ModelRegistration<Motor> = {
  api: "rdk:component:motor",
  model: "acme:test:stuck",
  validate: () => ({ issues: [] }),
  async build(ctx) {
    const fail = async () => Promise.reject(new Error("driver not responding"));
    return {
      name: ctx.name,
      setPower: fail,
      goFor: fail,
      goTo: fail,
      setRPM: fail,
      resetZeroPosition: fail,
      getPosition: async () => 0,
      getProperties: async () => ({ positionReporting: false }),
      isPowered: async () => ({ isOn: true, powerPct: 1 }),
      isMoving: async () => true,
      stop: fail,
      doCommand: async (command) => command,
      close: async () => {},
    };
  },
};

let engine: GraphEngine | undefined;
afterEach(async () => {
  await engine?.close();
  engine = undefined;
});

function setup(options: { cloud?: CloudMetadata } = {}) {
  const clock = createManualClock(1_700_000_000_000);
  const registry = createModelRegistry();
  registerBuiltinModels(registry, { ioForBoard: () => createSimBoard().io });
  registry.register(stuckMotor);
  engine = createGraphEngine({ registry, clock });
  const parts = createGraphRobotParts({ engine, clock });
  const operations = createOperations({ clock, newId: () => uuidFrom(Math.random) });
  const sessions = createSessions({ clock, newId: () => uuidFrom(Math.random) });
  let shutdowns = 0;
  const service = createRobotService({
    ...parts,
    version: { platform: "svc-server", version: "1.2.3", apiVersion: "v0.1.512" },
    operations,
    sessions,
    requestShutdown: () => void shutdowns++,
    cloudMetadata: () => options.cloud,
    frameSystem: () => frameSystemOf([]),
  });
  const runner = createCallRunner({ operations, sessions });
  // Each handler called the way the transports call it: as an operation under the call runner.
  const call = <K extends keyof typeof service>(name: K, request: Parameters<(typeof service)[K]>[0]) =>
    runner.run({ method: `/viam.robot.v1.RobotService/${String(name)}`, sessionId: "" }, (info) =>
      (service[name] as (r: unknown, c: typeof info) => Promise<unknown>)(request, info),
    );
  return { clock, engine, parts, operations, sessions, service, call, shutdowns: () => shutdowns };
}

describe("ResourceNames and ResourceRPCSubtypes", () => {
  it("name every resource that runs, and the gRPC service of each API in use", async () => {
    const { engine, call } = setup();
    await engine.apply({ components: [motor("left"), motor("right"), sensor("temp"), motor("ghost", {}, "acme:test:missing")] });
    const names = (await call("resourceNames", create(pb.ResourceNamesRequestSchema))) as { resources: unknown[] };
    expect(names.resources).toEqual(
      expect.arrayContaining([
        { namespace: "rdk", type: "component", subtype: "motor", name: "left" },
        { namespace: "rdk", type: "component", subtype: "motor", name: "right" },
        { namespace: "rdk", type: "component", subtype: "sensor", name: "temp" },
      ]),
    );
    expect(names.resources).toHaveLength(3);
    const subtypes = (await call("resourceRPCSubtypes", create(pb.ResourceRPCSubtypesRequestSchema))) as { resourceRpcSubtypes: unknown[] };
    expect(subtypes.resourceRpcSubtypes).toEqual([
      { subtype: { namespace: "rdk", type: "component", subtype: "motor", name: "" }, protoService: "viam.component.motor.v1.MotorService" },
      { subtype: { namespace: "rdk", type: "component", subtype: "sensor", name: "" }, protoService: "viam.component.sensor.v1.SensorService" },
    ]);
  });
});

describe("the gRPC service of each API", () => {
  it("is the one the server registers for it", () => {
    for (const { api, service } of componentServiceApis) expect(protoServiceOf(api)).toBe(service);
    expect(protoServiceOf("acme:component:laser")).toBeUndefined();
  });
});

describe("GetMachineStatus", () => {
  it("is INITIALIZING before the first configuration and RUNNING after, with each resource's state", async () => {
    const { engine, clock, call } = setup();
    const before = (await call("getMachineStatus", create(pb.GetMachineStatusRequestSchema))) as pb.GetMachineStatusResponse;
    expect(before).toMatchObject({ state: pb.GetMachineStatusResponse_State.INITIALIZING, resources: [], config: { revision: "" } });
    expect(before.config?.lastUpdated).toBeUndefined();

    clock.advance(5_000);
    await engine.apply({ components: [motor("left"), motor("slow", { max_rpm: -3 }), motor("ghost", {}, "acme:test:missing")] }, { revision: "rev-7" });
    const after = (await call("getMachineStatus", create(pb.GetMachineStatusRequestSchema))) as {
      state: number;
      config: { revision: string; lastUpdated: { seconds: bigint; nanos: number } };
      resources: Array<{ name: { name: string }; state: number; error: string; revision: string; lastUpdated: { seconds: bigint } }>;
    };
    expect(after.state).toBe(pb.GetMachineStatusResponse_State.RUNNING);
    expect(after.config).toEqual({ revision: "rev-7", lastUpdated: { seconds: 1_700_000_005n, nanos: 0 } });
    const byName = Object.fromEntries(after.resources.map((r) => [r.name.name, r]));
    expect(byName.left).toMatchObject({
      name: { namespace: "rdk", type: "component", subtype: "motor", name: "left" },
      state: pb.ResourceStatus_State.READY,
      error: "",
      revision: "rev-7",
      lastUpdated: { seconds: 1_700_000_005n },
    });
    expect(byName.slow).toMatchObject({ state: pb.ResourceStatus_State.UNHEALTHY });
    expect(byName.slow!.error).toContain("max_rpm");
    expect(byName.ghost).toMatchObject({ state: pb.ResourceStatus_State.UNCONFIGURED });
    expect(byName.ghost!.error).toContain("acme:test:missing");
  });

  it("carries the cloud metadata on each resource of a cloud-managed machine", async () => {
    const cloud = { machinePartId: "part-1", primaryOrgId: "", locationId: "", machineId: "" };
    const { engine, call } = setup({ cloud });
    await engine.apply({ components: [motor("left")] });
    const status = (await call("getMachineStatus", create(pb.GetMachineStatusRequestSchema))) as pb.GetMachineStatusResponse;
    expect(status.resources[0]!.cloudMetadata).toMatchObject({ machinePartId: "part-1", robotPartId: "part-1" });
  });
});

describe("StopAll", () => {
  it("stops every actuator and cancels every other call in flight", async () => {
    const { engine, operations, call } = setup();
    await engine.apply({ components: [motor("left"), motor("right"), sensor("temp")] });
    const left = engine.resource("rdk:component:motor/left") as Motor;
    const right = engine.resource("rdk:component:motor/right") as Motor;
    await left.setPower(0.4);
    const goFor = operations.run({ method: "/viam.component.motor.v1.MotorService/GoFor" }, (c) => {
      c.onCancel(() => void right.stop());
      return right.goFor(60, 0);
    });
    expect(await right.isMoving()).toBe(true);
    await call("stopAll", create(pb.StopAllRequestSchema));
    expect(await left.isMoving()).toBe(false);
    expect(await right.isMoving()).toBe(false);
    await expect(goFor).rejects.toMatchObject({ code: Code.Canceled, message: "cancelled by StopAll" });
  });

  it("still stops the others when one fails, and names the failure", async () => {
    const { engine, call } = setup();
    await engine.apply({ components: [motor("left"), motor("wedged", {}, "acme:test:stuck")] });
    const left = engine.resource("rdk:component:motor/left") as Motor;
    await left.setPower(1);
    const error = await call("stopAll", create(pb.StopAllRequestSchema)).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: Code.Unknown,
      message: "StopAll: 1 of 2 actuators could not be stopped: rdk:component:motor/wedged: driver not responding",
    });
    expect(await left.isMoving()).toBe(false);
  });
});

describe("the rest of the machine", () => {
  it("GetVersion names the platform, its version and the API version", async () => {
    const { call } = setup();
    expect(await call("getVersion", create(pb.GetVersionRequestSchema))).toEqual({ platform: "svc-server", version: "1.2.3", apiVersion: "v0.1.512" });
  });

  it("GetCloudMetadata answers from the cloud section, and says clearly when there is none", async () => {
    const cloud = { machinePartId: "part-1", primaryOrgId: "org", locationId: "loc", machineId: "m" };
    expect(await setup({ cloud }).call("getCloudMetadata", create(pb.GetCloudMetadataRequestSchema))).toEqual({
      robotPartId: "part-1",
      machinePartId: "part-1",
      primaryOrgId: "org",
      locationId: "loc",
      machineId: "m",
    });
    const error = await setup().call("getCloudMetadata", create(pb.GetCloudMetadataRequestSchema)).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: Code.FailedPrecondition });
    expect((error as Error).message).toContain("no cloud");
  });

  it("Shutdown asks for the shutdown and answers", async () => {
    const machine = setup();
    await machine.call("shutdown", create(pb.ShutdownRequestSchema));
    expect(machine.shutdowns()).toBe(1);
  });

  it("StartSession answers the id and the window as a Duration; a heartbeat keeps it", async () => {
    const { call } = setup();
    const started = (await call("startSession", create(pb.StartSessionRequestSchema))) as { id: string; heartbeatWindow: unknown };
    expect(started.heartbeatWindow).toEqual({ seconds: 2n, nanos: 0 });
    await call("sendSessionHeartbeat", create(pb.SendSessionHeartbeatRequestSchema, { id: started.id }));
    await expect(call("sendSessionHeartbeat", create(pb.SendSessionHeartbeatRequestSchema, { id: "nope" }))).rejects.toMatchObject({
      code: Code.InvalidArgument,
      message: "SESSION_EXPIRED",
    });
  });

  it("has a handler for every method of the RobotService", () => {
    const { service } = setup();
    for (const method of pb.RobotService.methods) expect(typeof (service as Record<string, unknown>)[method.localName]).toBe("function");
  });
});

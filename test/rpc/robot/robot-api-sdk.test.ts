// The RobotService over the real API server, driven by the official SDK (gRPC-web over fetch) and
// by a raw connect client: resources, machine status, version, operations listed while a GoFor
// runs and cancelled, BlockForOperation, StopAll, cloud metadata, Shutdown, and the session
// safety stop of a client that stops sending heartbeats. The machine is a real graph engine with
// the built-in fake models on a simulated board, on the wall clock.
import { Code, ConnectError, createClient, type Transport } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-node";
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createGraphEngine,
  createModelRegistry,
  createResourceLookup,
  registerBuiltinModels,
  type CloudConfig,
  type GraphEngine,
  type ResourceConfig,
} from "../../../core/index.js";
import { createSimBoard } from "../../../hal/sim/index.js";
import { MotorService } from "../../../proto/gen/component/motor/v1/motor_pb.js";
import { RobotService } from "../../../proto/gen/robot/v1/robot_pb.js";
import { createNodeClock } from "../../../targets/linux/logging/index.js";
import { createRobotApi, OPERATION_ID_HEADER, type RobotApi } from "../../../targets/linux/server/robot/index.js";
import { registerComponentServices } from "../../../targets/linux/server/rpc/index.js";
import { createApiServer, type ApiServer } from "../../../targets/linux/server/transport/index.js";

const GO_FOR = "/viam.component.motor.v1.MotorService/GoFor";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const motor = (name: string): ResourceConfig => ({ name, api: "rdk:component:motor", model: "rdk:builtin:fake", attributes: { max_rpm: 60 }, depends_on: [] });
const sensor = (name: string): ResourceConfig => ({ name, api: "rdk:component:sensor", model: "rdk:builtin:fake", attributes: {}, depends_on: [] });

let engine: GraphEngine;
let api: RobotApi;
let server: ApiServer;
let cloud: CloudConfig | undefined;
let shutdownRequests = 0;
const sdkClientHeaders = new Set<string>();
let startedAt = 0;

beforeAll(async () => {
  startedAt = Date.now();
  const clock = createNodeClock();
  const registry = createModelRegistry();
  registerBuiltinModels(registry, { ioForBoard: () => createSimBoard().io });
  engine = createGraphEngine({ registry, clock });
  await engine.apply({ components: [motor("m1"), motor("m2"), motor("m3"), sensor("temp")] }, { revision: "rev-1" });
  api = createRobotApi({
    engine,
    clock,
    version: "0.1.0",
    cloud: () => cloud,
    requestShutdown: () => void shutdownRequests++,
  });
  const lookup = createResourceLookup(engine);
  server = await createApiServer({
    bindAddress: "127.0.0.1:0",
    interceptors: [
      (next) => (req) => {
        const client = req.header.get("viam_client");
        if (client) sdkClientHeaders.add(client);
        return next(req);
      },
      api.interceptor,
    ],
    routes(router) {
      api.routes(router);
      registerComponentServices(router, lookup, api.callOptions);
    },
  });
});

afterAll(async () => {
  await server?.close();
  api?.close();
  await engine?.close();
});

async function withSdk<T>(fn: (robot: VIAM.RobotClient) => Promise<T>): Promise<T> {
  const robot = new VIAM.RobotClient();
  await robot.dial({ host: `http://localhost:${server.port}`, noReconnect: true });
  try {
    return await fn(robot);
  } finally {
    await robot.disconnect();
  }
}

/** Asks until `probe` returns something; a call that never comes fails the test, not hangs it. */
async function eventually<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const found = await probe();
    if (found !== undefined) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

const operationOn = (robot: VIAM.RobotClient, method: string, name: string) =>
  eventually(
    async () => (await robot.getOperations()).find((o) => o.method === method && (o.arguments?.toJson() as { name?: string } | undefined)?.name === name),
    `${method} on ${name}`,
  );

function rawClients(): { robot: ReturnType<typeof createClient<typeof RobotService>>; motor: ReturnType<typeof createClient<typeof MotorService>> } {
  const transport: Transport = createGrpcWebTransport({ baseUrl: server.url, httpVersion: "1.1" });
  return { robot: createClient(RobotService, transport), motor: createClient(MotorService, transport) };
}

describe("the official SDK", () => {
  it("lists the resources, the machine's status and the version", async () => {
    await withSdk(async (robot) => {
      const names = (await robot.resourceNames()).map((n) => `${n.namespace}:${n.type}:${n.subtype}/${n.name}`);
      expect(names.sort()).toEqual([
        "rdk:component:motor/m1",
        "rdk:component:motor/m2",
        "rdk:component:motor/m3",
        "rdk:component:sensor/temp",
      ]);

      const status = await robot.getMachineStatus();
      expect(status.state).toBe(VIAM.robotApi.GetMachineStatusResponse_State.RUNNING);
      expect(status.config?.revision).toBe("rev-1");
      expect(status.resources).toHaveLength(4);
      for (const r of status.resources) {
        expect(r.state).toBe(VIAM.robotApi.ResourceStatus_State.READY);
        expect(r.revision).toBe("rev-1");
        expect(r.lastUpdated!.toDate().getTime()).toBeGreaterThanOrEqual(startedAt - 1000);
      }

      const version = await robot.getVersion();
      expect(version.platform).toBe("svc-server");
      expect(version.version).toBe("0.1.0");
      // The SDK announces the API version it speaks in its client header; ours must be that one.
      const [announced] = Array.from(sdkClientHeaders);
      expect(announced?.split(";")[2]).toBe(version.apiVersion);
    });
  });

  it("sees a GoFor in flight among the operations, with its arguments, and cancels it", async () => {
    await withSdk(async (robot) => {
      const m1 = new VIAM.MotorClient(robot, "m1");
      const going = m1.goFor(60, 1000).then(
        () => "finished",
        (e: unknown) => e,
      );
      const op = await operationOn(robot, GO_FOR, "m1");
      expect(op.id).toMatch(UUID);
      expect(op.arguments!.toJson()).toMatchObject({ name: "m1", rpm: 60, revolutions: 1000 });
      expect(op.started!.toDate().getTime()).toBeGreaterThanOrEqual(startedAt - 1000);
      // The SDK sends a session id only for methods it has learned are safety-monitored, which it
      // learns once a session has started; as shipped it starts none, so its calls carry none.
      expect(op.sessionId).toBeUndefined();
      expect(api.sessions.list()).toEqual([]);
      expect(await m1.isMoving()).toBe(true);
      // The SDK's own GetOperations is not in its answer.
      expect((await robot.getOperations()).some((o) => o.method.endsWith("/GetOperations"))).toBe(false);

      await robot.cancelOperation(op.id);
      const outcome = await going;
      expect(outcome).toBeInstanceOf(ConnectError);
      expect((outcome as ConnectError).code).toBe(Code.Canceled);
      expect(await m1.isMoving()).toBe(false);
      expect((await robot.getOperations()).some((o) => o.id === op.id)).toBe(false);

      const unknown = await robot.cancelOperation(op.id).catch((e: unknown) => e);
      expect(unknown).toMatchObject({ code: Code.NotFound });
    });
  });

  it("blocks for an operation until it ends", async () => {
    await withSdk(async (robot) => {
      const m2 = new VIAM.MotorClient(robot, "m2");
      const going = m2.goFor(60, 1000);
      const op = await operationOn(robot, GO_FOR, "m2");
      let unblocked = false;
      const blocked = robot.blockForOperation(op.id).then(() => (unblocked = true));
      // The blocked call is itself an operation in flight.
      await eventually(async () => (await robot.getOperations()).find((o) => o.method.endsWith("/BlockForOperation")), "BlockForOperation");
      expect(unblocked).toBe(false);
      await m2.stop();
      await going;
      await blocked;
      expect(unblocked).toBe(true);
      // An operation that is not running is waited for at once.
      await robot.blockForOperation(op.id);
    });
  });

  it("stops every moving motor with StopAll, and cancels the calls in flight", async () => {
    await withSdk(async (robot) => {
      const m3 = new VIAM.MotorClient(robot, "m3");
      const m1 = new VIAM.MotorClient(robot, "m1");
      await m3.setPower(0.5);
      const going = m1.goFor(60, 1000).catch((e: unknown) => e);
      await operationOn(robot, GO_FOR, "m1");
      expect(await m3.isMoving()).toBe(true);
      await robot.stopAll();
      expect(await m3.isMoving()).toBe(false);
      expect(await m1.isMoving()).toBe(false);
      expect(await going).toMatchObject({ code: Code.Canceled });
    });
  });

  it("gets the cloud metadata of a cloud-managed machine, and a clear error otherwise", async () => {
    await withSdk(async (robot) => {
      cloud = undefined;
      const error = await robot.getCloudMetadata().catch((e: unknown) => e);
      expect(error).toMatchObject({ code: Code.FailedPrecondition });
      expect((error as ConnectError).rawMessage).toContain("no cloud");
      cloud = { id: "part-7", secret: "s", app_address: "", refresh_interval: "10s", refresh_interval_ms: 10_000 };
      const metadata = await robot.getCloudMetadata();
      expect(metadata.machinePartId).toBe("part-7");
      expect(metadata.robotPartId).toBe("part-7");
      cloud = undefined;
    });
  });
});

describe("a raw client", () => {
  it("is told each call's operation id", async () => {
    const { motor: motorClient } = rawClients();
    let opid: string | null = null;
    await motorClient.isMoving({ name: "m1" }, { onHeader: (h) => void (opid = h.get(OPERATION_ID_HEADER)) });
    expect(opid).toMatch(UUID);
    const error = await motorClient.isMoving({ name: "nope" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: Code.NotFound });
    expect((error as ConnectError).metadata.get(OPERATION_ID_HEADER)).toMatch(UUID);
  });

  it("answers the SDK's subtypes question and asks for a shutdown", async () => {
    const { robot } = rawClients();
    const { resourceRpcSubtypes } = await robot.resourceRPCSubtypes({});
    expect(resourceRpcSubtypes.map((s) => `${s.subtype?.subtype} ${s.protoService}`).sort()).toEqual([
      "motor viam.component.motor.v1.MotorService",
      "sensor viam.component.sensor.v1.SensorService",
    ]);
    await robot.shutdown({});
    await eventually(async () => (shutdownRequests === 1 ? true : undefined), "the shutdown request");
  });

  it("has its motor stopped when its session lapses, while another session's motor keeps going", async () => {
    const { robot, motor: motorClient } = rawClients();
    const quiet = await robot.startSession({});
    const alive = await robot.startSession({});
    expect(quiet.heartbeatWindow).toMatchObject({ seconds: 2n, nanos: 0 });
    const inSession = (id: string) => ({ headers: { "viam-sid": id } });
    await motorClient.setPower({ name: "m1", powerPct: 0.5 }, inSession(quiet.id));
    await motorClient.setPower({ name: "m2", powerPct: 0.5 }, inSession(alive.id));

    // Only `alive` sends heartbeats; `quiet` falls silent.
    await eventually(async () => {
      await robot.sendSessionHeartbeat({ id: alive.id });
      return (await motorClient.isMoving({ name: "m1" })).isMoving ? undefined : true;
    }, "the safety stop of m1");
    expect((await motorClient.isMoving({ name: "m2" })).isMoving).toBe(true);

    // The lapsed session is gone: its heartbeats and calls are refused the way the SDK recognises.
    const heartbeat = await robot.sendSessionHeartbeat({ id: quiet.id }).catch((e: unknown) => e);
    expect(heartbeat).toMatchObject({ code: Code.InvalidArgument, rawMessage: "SESSION_EXPIRED" });
    const call = await motorClient.setPower({ name: "m1", powerPct: 0.5 }, inSession(quiet.id)).catch((e: unknown) => e);
    expect(call).toMatchObject({ code: Code.InvalidArgument, rawMessage: "SESSION_EXPIRED" });
    expect((await motorClient.isMoving({ name: "m1" })).isMoving).toBe(false);
    // Resuming it starts a fresh session, which is how a client recovers.
    const fresh = await robot.startSession({ resume: quiet.id });
    expect(fresh.id).toMatch(UUID);
    expect(fresh.id).not.toBe(quiet.id);

    await motorClient.stop({ name: "m2" });
  });
});

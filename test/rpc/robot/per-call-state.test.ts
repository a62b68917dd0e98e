// What a call leaves behind once it has ended, however it ended: nothing. After hundreds of calls
// the operations list is empty, no abort listener is left on a signal that outlives a call, and a
// session is held only while it lives. Checked by counting what is held, never by timing or by
// the size of the heap (the heap after garbage collection over a million calls is in the server
// benchmark).
import { create } from "@bufbuild/protobuf";
import {
  Code,
  ConnectError,
  createClient,
  createContextValues,
  type HandlerContext,
  type Interceptor,
  type StreamRequest,
  type StreamResponse,
  type Transport,
  type UnaryRequest,
  type UnaryResponse,
} from "@connectrpc/connect";
import { createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import { getEventListeners } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createGraphEngine,
  createManualClock,
  createModelRegistry,
  createResourceLookup,
  registerBuiltinModels,
  type GraphEngine,
  type ResourceConfig,
} from "../../../core/index.js";
import { createSimBoard } from "../../../hal/sim/index.js";
import { GetReadingsRequestSchema, GetReadingsResponseSchema } from "../../../proto/gen/common/v1/common_pb.js";
import { BoardService, StreamTicksRequestSchema, StreamTicksResponseSchema } from "../../../proto/gen/component/board/v1/board_pb.js";
import { MotorService } from "../../../proto/gen/component/motor/v1/motor_pb.js";
import { SensorService } from "../../../proto/gen/component/sensor/v1/sensor_pb.js";
import { RobotService } from "../../../proto/gen/robot/v1/robot_pb.js";
import { createNodeClock } from "../../../targets/linux/logging/index.js";
import { createRobotApi, type RobotApi } from "../../../targets/linux/server/robot/index.js";
import { registerComponentServices, toConnectImpl } from "../../../targets/linux/server/rpc/index.js";
import { createApiServer, type ApiServer } from "../../../targets/linux/server/transport/index.js";

const motor: ResourceConfig = { name: "m", api: "rdk:component:motor", model: "rdk:builtin:fake", attributes: { max_rpm: 60 }, depends_on: [] };
const sensor: ResourceConfig = { name: "temp", api: "rdk:component:sensor", model: "rdk:builtin:fake", attributes: {}, depends_on: [] };

const heartbeatWindowMs = 2_000;
// Operations and sessions on a clock the test moves: a session lapses only when the test says so.
const sessionClock = createManualClock(0);
let engine: GraphEngine;
let api: RobotApi;
let server: ApiServer;

beforeAll(async () => {
  const registry = createModelRegistry();
  registerBuiltinModels(registry, { ioForBoard: () => createSimBoard().io });
  engine = createGraphEngine({ registry, clock: createNodeClock() });
  await engine.apply({ components: [motor, sensor] }, { revision: "rev-1" });
  api = createRobotApi({ engine, clock: sessionClock, version: "0.1.0", cloud: () => undefined, requestShutdown: () => {}, heartbeatWindowMs });
  const lookup = createResourceLookup(engine);
  server = await createApiServer({
    bindAddress: "127.0.0.1:0",
    interceptors: [api.interceptor],
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

async function eventually(probe: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (probe()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/** Runs `count` calls of `one`, `inFlight` at a time; resolves with how each ended (its code, or "ok"). */
async function calls(count: number, inFlight: number, one: (i: number) => Promise<unknown>): Promise<Map<string, number>> {
  const endings = new Map<string, number>();
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) {
      const ending = await one(i).then(
        () => "ok",
        (e: unknown) => Code[ConnectError.from(e).code],
      );
      endings.set(ending, (endings.get(ending) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return endings;
}

describe.each([
  ["gRPC over HTTP/2", (url: string): Transport => createGrpcTransport({ baseUrl: url })],
  ["gRPC-web over HTTP/1.1", (url: string): Transport => createGrpcWebTransport({ baseUrl: url, httpVersion: "1.1" })],
])("calls over %s", (_protocol, transportFor) => {
  it("leave no operation behind, however they end", async () => {
    const transport = transportFor(server.url);
    const sensors = createClient(SensorService, transport);
    const motors = createClient(MotorService, transport);
    const robot = createClient(RobotService, transport);
    const { id: sessionId } = await robot.startSession({});

    expect(await calls(300, 16, () => sensors.getReadings({ name: "temp" }))).toEqual(new Map([["ok", 300]]));
    expect(await calls(100, 16, () => sensors.getReadings({ name: "nope" }))).toEqual(new Map([["NotFound", 100]]));
    const underSession = { headers: { "viam-sid": sessionId } };
    expect(await calls(100, 16, () => sensors.getReadings({ name: "temp" }, underSession))).toEqual(new Map([["ok", 100]]));
    const lapsed = { headers: { "viam-sid": "00000000-0000-4000-8000-000000000000" } };
    expect(await calls(50, 16, () => sensors.getReadings({ name: "temp" }, lapsed))).toEqual(new Map([["InvalidArgument", 50]]));
    // Movements that would run for minutes, cut short by their deadline or by the client; one at
    // a time, since a new movement of the motor would end the one before it.
    const goFor = { name: "m", rpm: 60, revolutions: 1_000 };
    expect(await calls(30, 1, () => motors.goFor(goFor, { ...underSession, timeoutMs: 20 }))).toEqual(new Map([["DeadlineExceeded", 30]]));
    const gaveUp = await calls(30, 1, (i) => {
      const giveUp = new AbortController();
      const call = motors.goFor(goFor, { ...underSession, signal: giveUp.signal });
      setTimeout(() => giveUp.abort(), i % 3);
      return call;
    });
    expect(gaveUp).toEqual(new Map([["Canceled", 30]]));

    await eventually(() => api.operations.count() === 0, "every operation to end");
    // Once its calls stop the session lapses, and nothing of it stays: no entry, no timer.
    expect(api.sessions.list().map((s) => s.id)).toEqual([sessionId]);
    sessionClock.advance(heartbeatWindowMs + 1);
    expect(api.sessions.list()).toEqual([]);
    expect(sessionClock.pending()).toBe(0);
  });
});

/** A connect call as the router hands it to interceptors, on a signal that outlives it. */
function unaryRequest(signal: AbortSignal, sessionId = ""): UnaryRequest {
  const method = SensorService.method.getReadings;
  return {
    stream: false,
    service: SensorService,
    method,
    requestMethod: "POST",
    url: `http://127.0.0.1/${SensorService.typeName}/${method.name}`,
    signal,
    header: new Headers(sessionId ? { "viam-sid": sessionId } : {}),
    contextValues: createContextValues(),
    message: create(GetReadingsRequestSchema, { name: "temp" }),
  } as unknown as UnaryRequest;
}

function unaryResponse(): UnaryResponse {
  const method = SensorService.method.getReadings;
  return {
    stream: false,
    service: SensorService,
    method,
    header: new Headers(),
    trailer: new Headers(),
    message: create(GetReadingsResponseSchema),
  } as unknown as UnaryResponse;
}

function streamRequest(signal: AbortSignal): StreamRequest {
  const method = BoardService.method.streamTicks;
  async function* one() {
    yield create(StreamTicksRequestSchema, { name: "b", pinNames: ["7"] });
  }
  return {
    stream: true,
    service: BoardService,
    method,
    requestMethod: "POST",
    url: `http://127.0.0.1/${BoardService.typeName}/${method.name}`,
    signal,
    header: new Headers(),
    contextValues: createContextValues(),
    message: one(),
  } as unknown as StreamRequest;
}

function streamResponse(ticks: number, fail = false): StreamResponse {
  const method = BoardService.method.streamTicks;
  async function* messages() {
    for (let i = 0; i < ticks; i++) yield create(StreamTicksResponseSchema, { pinName: "7", high: i % 2 === 0 });
    if (fail) throw new ConnectError("the board went away", Code.Unavailable);
  }
  return { stream: true, service: BoardService, method, header: new Headers(), trailer: new Headers(), message: messages() } as unknown as StreamResponse;
}

describe("the call interceptor", () => {
  it("leaves no abort listener on the transport's signal and no operation, however a call ends", async () => {
    const intercept: Interceptor = api.interceptor;
    // One signal for every call: a listener left per call would pile up on it.
    const transport = new AbortController();
    const listeners = () => getEventListeners(transport.signal, "abort").length;
    const { id: sessionId } = api.sessions.start();
    const ended = () => sessionClock.advance(heartbeatWindowMs + 1);

    for (let i = 0; i < 200; i++) {
      await intercept(async () => unaryResponse())(unaryRequest(transport.signal));
      await intercept(async () => unaryResponse())(unaryRequest(transport.signal, sessionId));
      await expect(intercept(async () => Promise.reject(new ConnectError("no", Code.NotFound)))(unaryRequest(transport.signal))).rejects.toThrow("no");
      await expect(intercept(async () => unaryResponse())(unaryRequest(transport.signal, "lapsed"))).rejects.toThrow("SESSION_EXPIRED");
      // Cancelled while it runs (CancelOperation, StopAll): the handler sees its own signal abort.
      const cancelled = intercept(async (req) => {
        api.operations.cancelAll();
        expect(req.signal.aborted).toBe(true);
        return unaryResponse();
      })(unaryRequest(transport.signal));
      await expect(cancelled).rejects.toMatchObject({ code: Code.Canceled });

      const drained = await intercept(async () => streamResponse(3))(streamRequest(transport.signal));
      for await (const _ of (drained as StreamResponse).message);
      const failed = await intercept(async () => streamResponse(1, true))(streamRequest(transport.signal));
      await expect((async () => {
        for await (const _ of (failed as StreamResponse).message);
      })()).rejects.toThrow("the board went away");
      // The client stops reading after the first message.
      const abandoned = await intercept(async () => streamResponse(5))(streamRequest(transport.signal));
      const reader = (abandoned as StreamResponse).message[Symbol.asyncIterator]();
      await reader.next();
      await reader.return?.();
    }
    expect(listeners()).toBe(0);
    expect(api.operations.count()).toBe(0);
    ended();
    expect(api.sessions.list()).toEqual([]);
  });
});

describe("a component call's CallInfo", () => {
  it("forgets its cancel hooks once the handler settles", async () => {
    const impl = toConnectImpl(SensorService, {
      async getReadings(_request, call) {
        // As a driver does around a long read: hooks it never gets to forget itself.
        call.onCancel(() => {});
        call.onCancel(() => {});
        return { readings: {} };
      },
      async doCommand() {
        return {};
      },
      async getGeometries() {
        return { geometries: [] };
      },
    });
    const shared = new AbortController();
    const context = {
      signal: shared.signal,
      service: SensorService,
      method: SensorService.method.getReadings,
      requestHeader: new Headers(),
      values: createContextValues(),
    } as unknown as HandlerContext;
    for (let i = 0; i < 500; i++) await impl.getReadings!(create(GetReadingsRequestSchema, { name: "temp" }), context);
    expect(getEventListeners(shared.signal, "abort")).toHaveLength(0);
  });
});

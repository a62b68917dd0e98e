// The connect adapter: the CallInfo it builds from connect's HandlerContext (session header,
// cancellation from the call's signal and from an operation's, actuators handed to the hook)
// and the ConnectError codes that leave it.
import { create } from "@bufbuild/protobuf";
import { Code as ConnectCode, ConnectError, createHandlerContext, type HandlerContext } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { GetReadingsRequestSchema } from "../../../proto/gen/common/v1/common_pb.js";
import { BoardService, StreamTicksRequestSchema } from "../../../proto/gen/component/board/v1/board_pb.js";
import { SensorService } from "../../../proto/gen/component/sensor/v1/sensor_pb.js";
import { Code, SvcError, type CallInfo, type ServiceHandlers } from "../../../core/index.js";
import { IOError } from "../../../hal/io.js";
import { createConnectCall, toConnectError, toConnectImpl } from "../../../targets/linux/server/rpc/index.js";

function contextFor(headers: Record<string, string> = {}, requestSignal?: AbortSignal): HandlerContext {
  return createHandlerContext({
    service: SensorService,
    method: SensorService.method.getReadings,
    protocolName: "grpc",
    requestMethod: "POST",
    url: "http://localhost/viam.component.sensor.v1.SensorService/GetReadings",
    requestHeader: headers,
    requestSignal,
  });
}

describe("createConnectCall", () => {
  it("names the method, reads the session from viam-sid, and hands driven actuators to the hook", () => {
    const driven: Array<[string, string]> = [];
    const { call } = createConnectCall(contextFor({ "viam-sid": "abc" }), {
      onActuatorDriven: (sessionId, name) => driven.push([sessionId, name]),
    });
    expect(call.method).toBe("/viam.component.sensor.v1.SensorService/GetReadings");
    expect(call.sessionId).toBe("abc");
    call.drove({ stop: async () => {} }, "rdk:component:motor/m");
    expect(driven).toEqual([["abc", "rdk:component:motor/m"]]);
    expect(createConnectCall(contextFor(), {}).call.sessionId).toBe("");
  });

  it("runs cancel callbacks once when the client goes away, and not once the handler has settled", () => {
    const client = new AbortController();
    const { call, settle } = createConnectCall(contextFor({}, client.signal), {});
    const seen: string[] = [];
    call.onCancel(() => seen.push("first"));
    const forget = call.onCancel(() => seen.push("forgotten"));
    forget();
    expect(call.cancelled()).toBe(false);
    client.abort();
    expect(call.cancelled()).toBe(true);
    expect(seen).toEqual(["first"]);
    call.onCancel(() => seen.push("late"));
    expect(seen).toEqual(["first", "late"]);

    const later = new AbortController();
    const done = createConnectCall(contextFor({}, later.signal), {});
    done.call.onCancel(() => seen.push("after settle"));
    done.settle();
    later.abort();
    expect(seen).toEqual(["first", "late"]);
  });

  it("uses the CallInfo another layer made for the call (an operation) as it is", async () => {
    const operation: CallInfo = {
      method: "/viam.component.sensor.v1.SensorService/GetReadings",
      sessionId: "from-operation",
      cancelled: () => false,
      onCancel: () => () => {},
      drove: () => {},
    };
    const context = contextFor({ "viam-sid": "ignored" });
    expect(createConnectCall(context, { callInfo: () => operation }).call).toBe(operation);
    expect(createConnectCall(context, { callInfo: () => undefined }).call.sessionId).toBe("ignored");
    let seen: CallInfo | undefined;
    const handlers = {
      async getReadings(_request, call) {
        seen = call;
        return { readings: {} };
      },
    } as Partial<ServiceHandlers<typeof SensorService>> as ServiceHandlers<typeof SensorService>;
    await toConnectImpl(SensorService, handlers, { callInfo: () => operation }).getReadings!(create(GetReadingsRequestSchema, { name: "t" }), context);
    expect(seen).toBe(operation);
  });
});

describe("toConnectImpl", () => {
  it("keeps a SvcError's code and message, folds IO errors and anything else in", async () => {
    const thrown: unknown[] = [
      new SvcError(Code.Unavailable, "rdk:component:sensor/t is not ready: warming up"),
      new IOError("invalid", "pin: must not be empty"),
      new Error("boom"),
      "plain text",
    ];
    let seenCall: CallInfo | undefined;
    const handlers = {
      async getReadings(_request, call) {
        seenCall = call;
        throw thrown.shift();
      },
    } as Partial<ServiceHandlers<typeof SensorService>> as ServiceHandlers<typeof SensorService>;
    const impl = toConnectImpl(SensorService, handlers);
    expect(Object.keys(impl)).toEqual(["getReadings"]);
    const results: Array<[number, string]> = [];
    for (let i = 0; i < 4; i++) {
      const error = await Promise.resolve(impl.getReadings!(create(GetReadingsRequestSchema, { name: "t" }), contextFor())).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectError);
      results.push([(error as ConnectError).code, (error as ConnectError).rawMessage]);
    }
    expect(results).toEqual([
      [ConnectCode.Unavailable, "rdk:component:sensor/t is not ready: warming up"],
      [ConnectCode.InvalidArgument, "pin: must not be empty"],
      [ConnectCode.Unknown, "boom"],
      [ConnectCode.Unknown, "plain text"],
    ]);
    expect(seenCall?.method).toBe("/viam.component.sensor.v1.SensorService/GetReadings");
  });

  it("maps errors of a server stream too", async () => {
    const handlers = {
      async *streamTicks() {
        throw new SvcError(Code.Unimplemented, "rdk:component:board/pi does not support StreamTicks");
      },
    } as Partial<ServiceHandlers<typeof BoardService>> as ServiceHandlers<typeof BoardService>;
    const impl = toConnectImpl(BoardService, handlers);
    const context = createHandlerContext({
      service: BoardService,
      method: BoardService.method.streamTicks,
      protocolName: "grpc",
      requestMethod: "POST",
      url: "http://localhost/",
    });
    const stream = impl.streamTicks!(create(StreamTicksRequestSchema, { name: "pi" }), context);
    const error = await (async () => {
      for await (const _ of stream) return undefined;
    })().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: ConnectCode.Unimplemented, rawMessage: "rdk:component:board/pi does not support StreamTicks" });
  });

  it("toConnectError leaves a ConnectError as it is", () => {
    const original = new ConnectError("denied", ConnectCode.PermissionDenied);
    expect(toConnectError(original)).toBe(original);
  });
});

// The MCU machine's HTTP exchange and RPC dispatcher on Node, on a manual clock: gRPC-web frames
// in and out, answers protobuf-es reads back, errors and their status codes, cancellation by the
// client and by the deadline, sessions, CORS and what is not gRPC-web.
import { fromBinary } from "@bufbuild/protobuf";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GetReadingsRequestSchema, GetReadingsResponseSchema } from "../../proto/gen/common/v1/common_pb.js";
import { GoForRequestSchema, IsMovingRequestSchema, IsMovingResponseSchema } from "../../proto/gen/component/motor/v1/motor_pb.js";
import { GetVersionRequestSchema, GetVersionResponseSchema, StartSessionRequestSchema, StartSessionResponseSchema } from "../../proto/gen/robot/v1/robot_pb.js";
import { createManualClock, type ManualClock } from "../../core/index.js";
import { createSimBoard } from "../../hal/sim/index.js";
import { createHttpExchange, type HttpExchange, type HttpResponse } from "../../targets/mcu/http-exchange.js";
import { createMcuMachine, type McuMachine } from "../../targets/mcu/mcu-machine.js";
import { frame, parse, request } from "./grpc-web-body.js";

const config = {
  components: [
    { name: "temp", api: "rdk:component:sensor", model: "fake", attributes: { readings: { celsius: 21.5 } } },
    { name: "wheel", api: "rdk:component:motor", model: "fake", attributes: { max_rpm: 60 } },
  ],
};

let clock: ManualClock;
let machine: McuMachine;
let http: HttpExchange;

beforeEach(async () => {
  clock = createManualClock(1_700_000_000_000);
  machine = createMcuMachine({ clock, random: Math.random, ioForBoard: () => createSimBoard().io, sink: { write() {} } });
  http = createHttpExchange({ serve: machine.serve, clock, applyConfig: machine.applyConfig });
  expect(await machine.applyConfig(JSON.stringify(config))).toMatchObject({ outcome: "applied" });
});

afterEach(async () => {
  await machine.close();
});

function post(path: string, body: Uint8Array, headers: Record<string, string> = {}) {
  const all: Record<string, string> = { "content-type": "application/grpc-web+proto", ...headers };
  return http.handle({ method: "POST", path, header: (name) => all[name], body });
}

const readings = "/viam.component.sensor.v1.SensorService/GetReadings";

describe("the MCU's gRPC-web dispatcher", () => {
  it("answers a call with the message and grpc-status 0, which protobuf-es reads", async () => {
    const response = await post(readings, request(GetReadingsRequestSchema, { name: "temp" })).done;
    expect(response.status).toBe(200);
    expect(response.headers).toContainEqual(["content-type", "application/grpc-web+proto"]);
    const { message, status } = parse(response.body);
    expect(status).toBe(0);
    const answer = fromBinary(GetReadingsResponseSchema, message!);
    expect(answer.readings.celsius?.kind).toEqual({ case: "numberValue", value: 21.5 });

    const version = parse((await post("/viam.robot.v1.RobotService/GetVersion", request(GetVersionRequestSchema, {})).done).body);
    expect(fromBinary(GetVersionResponseSchema, version.message!)).toMatchObject({ platform: "svc-mcu", apiVersion: "v0.1.512" });
  });

  it("answers UNIMPLEMENTED for a method or service it does not serve, naming it", async () => {
    expect(parse((await post("/viam.component.sensor.v1.SensorService/Calibrate", frame(new Uint8Array())).done).body)).toEqual({
      status: 12,
      text: "unknown method Calibrate for service viam.component.sensor.v1.SensorService",
    });
    expect(parse((await post("/viam.component.arm.v1.ArmService/MoveToPosition", frame(new Uint8Array())).done).body)).toEqual({
      status: 12,
      text: "unknown service viam.component.arm.v1.ArmService",
    });
  });

  it("refuses bodies that are not one message frame, and messages that are not the request", async () => {
    expect(parse((await post(readings, new Uint8Array([0, 0, 0])).done).body).status).toBe(3);
    expect(parse((await post(readings, frame(new Uint8Array([0x0a, 1, 0x61]), 1)).done).body)).toMatchObject({ status: 12, text: "compressed request messages are not supported" });
    const twoFrames = new Uint8Array([...frame(new Uint8Array()), ...frame(new Uint8Array())]);
    expect(parse((await post(readings, twoFrames).done).body).status).toBe(3);
    const broken = parse((await post(readings, frame(new Uint8Array([0x0a, 9, 0x61]))).done).body);
    expect(broken.status).toBe(3);
    expect(broken.text).toContain("GetReadingsRequest: premature end");
  });

  it("sends the handlers' errors with their codes, the message percent-encoded where the spec says", async () => {
    const missing = parse((await post(readings, request(GetReadingsRequestSchema, { name: "nope" })).done).body);
    expect(missing).toEqual({ status: 5, text: 'no rdk:component:sensor named "nope"' });
    const wrong = parse((await post(readings, request(GetReadingsRequestSchema, { name: "bad name é" })).done).body);
    expect(wrong.status).toBe(3);
    expect(wrong.text).toContain("é");
  });

  it("cancels a call whose client went away, and one whose deadline passed, stopping the motor", async () => {
    const goFor = "/viam.component.motor.v1.MotorService/GoFor";
    const gone = post(goFor, request(GoForRequestSchema, { name: "wheel", rpm: 60, revolutions: 10 }));
    clock.advance(500);
    gone.cancel();
    expect(parse((await gone.done).body)).toMatchObject({ status: 1 });

    const late = post(goFor, request(GoForRequestSchema, { name: "wheel", rpm: 60, revolutions: 10 }), { "grpc-timeout": "300m" });
    for (let i = 0; i < 10; i++) {
      clock.advance(50);
      await Promise.resolve();
    }
    expect(parse((await late.done).body)).toMatchObject({ status: 4, text: "the call's deadline passed" });
    const moving = parse((await post("/viam.component.motor.v1.MotorService/IsMoving", request(IsMovingRequestSchema, { name: "wheel" })).done).body);
    expect(fromBinary(IsMovingResponseSchema, moving.message!).isMoving).toBe(false);
  });

  it("checks the session a call carries: a live one is fine, an unknown one is SESSION_EXPIRED", async () => {
    const started = parse((await post("/viam.robot.v1.RobotService/StartSession", request(StartSessionRequestSchema, {})).done).body);
    const id = fromBinary(StartSessionResponseSchema, started.message!).id;
    expect(parse((await post(readings, request(GetReadingsRequestSchema, { name: "temp" }), { "viam-sid": id }).done).body).status).toBe(0);
    expect(parse((await post(readings, request(GetReadingsRequestSchema, { name: "temp" }), { "viam-sid": "gone" }).done).body)).toEqual({ status: 3, text: "SESSION_EXPIRED" });
  });
});

describe("the MCU's HTTP exchange", () => {
  const handle = (method: string, path: string, headers: Record<string, string> = {}, body = new Uint8Array()): Promise<HttpResponse> =>
    http.handle({ method, path, header: (name) => headers[name], body }).done;

  it("answers a browser's preflight, and exposes the gRPC status headers to it", async () => {
    const preflight = await handle("OPTIONS", readings, { origin: "http://app.local", "access-control-request-method": "POST" });
    expect(preflight.status).toBe(204);
    expect(new Map(preflight.headers).get("access-control-allow-origin")).toBe("http://app.local");
    expect(new Map(preflight.headers).get("access-control-allow-headers")).toContain("viam-sid");
    const call = await post(readings, request(GetReadingsRequestSchema, { name: "temp" }), { origin: "http://app.local" }).done;
    expect(new Map(call.headers).get("access-control-expose-headers")).toContain("grpc-status");
  });

  it("says what it does not serve: other content types, other paths", async () => {
    expect((await handle("POST", readings, { "content-type": "application/grpc" })).status).toBe(415);
    expect((await handle("POST", readings, { "content-type": "application/grpc-web-text" })).status).toBe(415);
    expect((await handle("GET", "/"))).toMatchObject({ status: 404 });
    expect((await handle("GET", readings, { "content-type": "application/grpc-web+proto" })).status).toBe(405);
  });

  it("takes a new configuration on PUT /svc/config when allowed, and says why it refused one", async () => {
    const next = { components: [config.components[0]] };
    const applied = await handle("PUT", "/svc/config", {}, Buffer.from(JSON.stringify(next)));
    expect(applied.status).toBe(200);
    expect(JSON.parse(Buffer.from(applied.body).toString())).toMatchObject({ outcome: "applied", removed: ["rdk:component:motor/wheel"] });
    const refused = await handle("PUT", "/svc/config", {}, Buffer.from("{"));
    expect(refused.status).toBe(422);
    expect((await handle("GET", "/svc/config")).status).toBe(405);
  });
});

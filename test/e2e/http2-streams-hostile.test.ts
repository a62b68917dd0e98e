// gRPC calls over HTTP/2 are taken as bare streams, before Node's request and response objects
// are made. What a careless or hostile HTTP/2 client sends must still meet the same screen and
// bounds as everything else, against the real svc-server process: a foreign :authority or a page's
// Origin goes the general way and is refused there; streams reset before, during and after their
// body, by the hundred at once, leave nothing running; a body that stops is ended by its
// deadline; a frame that lies about its length is refused. Afterwards the server still answers.
import { create, toBinary } from "@bufbuild/protobuf";
import http2 from "node:http2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GetReadingsRequestSchema } from "../../proto/gen/common/v1/common_pb.js";
import { GoForRequestSchema } from "../../proto/gen/component/motor/v1/motor_pb.js";
import { eventually } from "../helpers/eventually.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";

const readingsPath = "/viam.component.sensor.v1.SensorService/GetReadings";
const goForPath = "/viam.component.motor.v1.MotorService/GoFor";
const operationsPath = "/viam.robot.v1.RobotService/GetOperations";

let server: SvcServerProcess;
let session: http2.ClientHttp2Session;
beforeAll(async () => {
  server = await startSvcServer({
    components: [
      { name: "temp", api: "rdk:component:sensor", model: "fake", attributes: { readings: { celsius: 22 } } },
      { name: "board", api: "rdk:component:board", model: "fake" },
      { name: "m", api: "rdk:component:motor", model: "fake", attributes: { max_rpm: 60 } },
    ],
  });
  session = http2.connect(server.url);
  session.on("error", () => {});
});
afterAll(async () => {
  session?.close();
  await server?.stop();
});

function frame(message: Uint8Array, flags = 0, declared = message.length): Buffer {
  const out = Buffer.alloc(5 + message.length);
  out[0] = flags;
  out.writeUInt32BE(declared, 1);
  out.set(message, 5);
  return out;
}

const readingsFrame = frame(toBinary(GetReadingsRequestSchema, create(GetReadingsRequestSchema, { name: "temp" })));
const longGoForFrame = frame(toBinary(GoForRequestSchema, create(GoForRequestSchema, { name: "m", rpm: 1, revolutions: 1000 })));

interface Answer {
  status?: number;
  grpcStatus?: string;
  grpcMessage?: string;
  body: Buffer;
}

/** One call on the shared session: its headers, the body written as given, and what came back. */
function call(path: string, body: Buffer | undefined, headers: http2.OutgoingHttpHeaders = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ":method": "POST", ":path": path, "content-type": "application/grpc", te: "trailers", ...headers });
    const answer: Answer = { body: Buffer.alloc(0) };
    const note = (h: http2.IncomingHttpHeaders) => {
      if (h[":status"] !== undefined) answer.status = Number(h[":status"]);
      if (h["grpc-status"] !== undefined) answer.grpcStatus = String(h["grpc-status"]);
      if (h["grpc-message"] !== undefined) answer.grpcMessage = String(h["grpc-message"]);
    };
    stream.on("response", note);
    stream.on("trailers", note);
    stream.on("data", (chunk: Buffer) => (answer.body = Buffer.concat([answer.body, chunk])));
    stream.on("error", reject);
    stream.on("close", () => resolve(answer));
    if (body === undefined) return;
    stream.end(body);
  });
}

/** Opens a call, writes `first` (if any), then resets the stream `after` ms later with `code` (CANCEL, or an error code, which the server hears as an error). */
function resetCall(path: string, first: Buffer | undefined, after: number, code: number = http2.constants.NGHTTP2_CANCEL): Promise<void> {
  return new Promise((resolve) => {
    const stream = session.request({ ":method": "POST", ":path": path, "content-type": "application/grpc", te: "trailers" });
    stream.on("error", () => {});
    stream.on("close", () => resolve());
    if (first) stream.write(first);
    setTimeout(() => stream.close(code), after);
  });
}

async function stillServing(): Promise<void> {
  const answer = await call(readingsPath, readingsFrame);
  expect(answer.grpcStatus).toBe("0");
  expect(answer.body.length).toBeGreaterThan(5);
}

async function nothingRunning(): Promise<void> {
  await eventually(async () => {
    const answer = await call(operationsPath, frame(new Uint8Array(0)));
    // GetOperations lists itself out: an empty answer is one frame holding an empty message.
    return answer.grpcStatus === "0" && answer.body.length === 5 ? true : undefined;
  }, "no operation left running");
}

describe("gRPC over HTTP/2 streams, hostile and careless", () => {
  it("goes the general way for a foreign :authority (421) and a page's Origin (403), as HTTP/1.1 does", async () => {
    const foreign = await call(readingsPath, readingsFrame, { ":authority": "evil.example" });
    expect(foreign.status).toBe(421);
    expect(foreign.body.toString()).toContain("network.allowed_hosts");
    const page = await call(readingsPath, readingsFrame, { origin: "https://evil.example" });
    expect(page.status).toBe(403);
    await stillServing();
  });

  it("survives streams reset before their body, halfway through it, and while their call runs", async () => {
    const { NGHTTP2_CANCEL, NGHTTP2_INTERNAL_ERROR, NGHTTP2_PROTOCOL_ERROR } = http2.constants;
    for (const code of [NGHTTP2_CANCEL, NGHTTP2_INTERNAL_ERROR, NGHTTP2_PROTOCOL_ERROR]) {
      await resetCall(readingsPath, undefined, 0, code);
      await resetCall(readingsPath, readingsFrame.subarray(0, 3), 20, code);
      await resetCall(goForPath, longGoForFrame, 200, code);
    }
    await stillServing();
    await nothingRunning();
  });

  it("survives two hundred streams reset at once, mid-call", async () => {
    const codes = [http2.constants.NGHTTP2_CANCEL, http2.constants.NGHTTP2_INTERNAL_ERROR];
    await Promise.all(Array.from({ length: 200 }, (_, i) => resetCall(goForPath, longGoForFrame, 50 + (i % 7), codes[i % 2])));
    await stillServing();
    await nothingRunning();
  });

  it("ends a body that stops arriving at the call's deadline", async () => {
    const stream = session.request({ ":method": "POST", ":path": readingsPath, "content-type": "application/grpc", te: "trailers", "grpc-timeout": "200m" });
    stream.write(readingsFrame.subarray(0, 4));
    const trailers = await new Promise<http2.IncomingHttpHeaders>((resolve, reject) => {
      stream.on("trailers", resolve);
      stream.on("error", reject);
      stream.resume();
    });
    stream.close();
    expect(trailers["grpc-status"]).toBe("4");
    expect(decodeURIComponent(String(trailers["grpc-message"]))).toBe("the call passed its deadline (grpc-timeout: 200m)");
    await stillServing();
  });

  it("refuses a frame that declares more than it holds, and one past the message limit, with their status", async () => {
    const short = await call(readingsPath, frame(new Uint8Array([10, 4, 116, 101]), 0, 40));
    expect(short.grpcStatus).not.toBe("0");
    expect(short.grpcStatus).toBeDefined();
    const huge = await call(readingsPath, frame(new Uint8Array(8), 0, 64 * 1024 * 1024));
    expect(huge.grpcStatus).toBe("8");
    expect(decodeURIComponent(huge.grpcMessage ?? "")).toContain("larger than the");
    await stillServing();
  });
});

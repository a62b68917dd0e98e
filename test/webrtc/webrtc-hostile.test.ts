// The hostile half of WebRTC on svc-server: what a careless or malicious peer sends to the
// signaling service and over a data channel is refused or dropped, bounded, and the machine goes
// on answering everyone else.
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GetReadingsRequestSchema, GetReadingsResponseSchema } from "../../proto/gen/common/v1/common_pb.js";
import { SensorService } from "../../proto/gen/component/sensor/v1/sensor_pb.js";
import { GoForRequestSchema, MotorService } from "../../proto/gen/component/motor/v1/motor_pb.js";
import { eventually } from "../helpers/eventually.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";
import { connectRaw, encodeDescription, newOffer, signalingClient, type RawConnection } from "./raw-webrtc-client.js";

const readings = "/viam.component.sensor.v1.SensorService/GetReadings";
const sensor = { name: "temp", api: "rdk:component:sensor", model: "rdk:builtin:fake" };
const wheel = { name: "wheel", api: "rdk:component:motor", model: "rdk:builtin:fake" };
const goFor = "/viam.component.motor.v1.MotorService/GoFor";
const longGoFor = toBinary(GoForRequestSchema, create(GoForRequestSchema, { name: "wheel", rpm: 60, revolutions: 100 }));
let open: SvcServerProcess;
let keyed: SvcServerProcess;
let roomy: SvcServerProcess;
const connections: RawConnection[] = [];

beforeAll(async () => {
  [open, keyed, roomy] = await Promise.all([
    startSvcServer({ network: { bind_address: "127.0.0.1:0" }, components: [sensor, wheel] }),
    startSvcServer({
      network: { bind_address: "127.0.0.1:0" },
      components: [sensor],
      auth: { handlers: [{ type: "api-key", config: { k1: "s3cret-key-value", keys: ["k1"] } }] },
    }),
    // A port allowing 64 MiB: the data channel still holds a message to 32 MiB.
    startSvcServer({ network: { bind_address: "127.0.0.1:0", max_message_bytes: 64 * 1024 * 1024 }, components: [sensor] }),
  ]);
});
afterAll(async () => {
  for (const connection of connections.splice(0)) connection.close();
  await Promise.all([open, keyed, roomy].map((server) => server?.stop()));
});

const hostOf = (server: SvcServerProcess) => new URL(server.url).host;

async function connect(server: SvcServerProcess): Promise<RawConnection> {
  const connection = await connectRaw(server.url, hostOf(server));
  connections.push(connection);
  return connection;
}

async function callError(promise: Promise<unknown>): Promise<ConnectError> {
  try {
    await promise;
  } catch (error) {
    return ConnectError.from(error);
  }
  throw new Error("the call succeeded");
}

async function drain(iterable: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of iterable);
}

function readingsRequest(id: bigint, connection: RawConnection, message = toBinary(GetReadingsRequestSchema, create(GetReadingsRequestSchema, { name: "temp" }))): void {
  connection.send({ stream: { id }, type: { case: "headers", value: { method: readings } } });
  connection.send({ stream: { id }, type: { case: "message", value: { hasMessage: true, packetMessage: { data: message, eom: true } } } });
}

async function answersReadings(connection: RawConnection, id: bigint): Promise<void> {
  readingsRequest(id, connection);
  const message = await connection.next(id, "message");
  const answer = fromBinary(GetReadingsResponseSchema, message.type.case === "message" ? message.type.value.packetMessage!.data : new Uint8Array());
  expect(Object.keys(answer.readings).length).toBeGreaterThan(0);
  const trailers = await connection.next(id, "trailers");
  expect(trailers.type.case === "trailers" && trailers.type.value.status?.code).toBe(0);
}

async function motorStopped(server: SvcServerProcess): Promise<void> {
  const direct = createClient(MotorService, createGrpcTransport({ baseUrl: server.url }));
  await eventually(async () => ((await direct.isMoving({ name: "wheel" })).isMoving ? undefined : true), "the motor stopped");
}

async function statusOf(connection: RawConnection, id: bigint): Promise<{ code: number; message: string }> {
  const trailers = await connection.next(id, "trailers");
  const status = trailers.type.case === "trailers" ? trailers.type.value.status : undefined;
  return { code: status?.code ?? 0, message: status?.message ?? "" };
}

describe("signaling", () => {
  it("refuses a Call without credentials on a machine with API keys, before looking at the offer", async () => {
    const error = await callError(drain(signalingClient(keyed.url).call({ sdp: "x" }, { headers: { "rpc-host": hostOf(keyed) } })));
    expect(error.code).toBe(Code.Unauthenticated);
  });

  it("answers a host it is not, and a call it does not know, with NOT_FOUND", async () => {
    const { sdp, pc } = await newOffer();
    pc.close();
    const signaling = signalingClient(open.url);
    const elsewhere = await callError(drain(signaling.call({ sdp }, { headers: { "rpc-host": "robot.example.com" } })));
    expect(elsewhere.code).toBe(Code.NotFound);
    const unknown = await callError(signaling.callUpdate({ uuid: "not-a-call", update: { case: "done", value: true } }, { headers: { "rpc-host": hostOf(open) } }));
    expect(unknown.code).toBe(Code.NotFound);
  });

  it("refuses an offer that is oversize or not a session description, saying which", async () => {
    const signaling = signalingClient(open.url);
    const headers = { "rpc-host": hostOf(open) };
    const huge = encodeDescription({ type: "offer", sdp: `v=0\r\n${"a=x\r\n".repeat(20_000)}` });
    const oversize = await callError(drain(signaling.call({ sdp: huge }, { headers })));
    expect(oversize.code).toBe(Code.InvalidArgument);
    expect(oversize.rawMessage).toMatch(/at most 65536 characters/);
    for (const sdp of ["%%%", Buffer.from("[1,2]").toString("base64"), encodeDescription({ type: "answer", sdp: "v=0" })]) {
      const error = await callError(drain(signaling.call({ sdp }, { headers })));
      expect(error.code).toBe(Code.InvalidArgument);
      expect(error.rawMessage).toMatch(/^sdp: /);
    }
  });

  it("holds a flood of Calls that never connect to a bound, and keeps answering its API", async () => {
    const offers = await Promise.all(Array.from({ length: 24 }, () => newOffer()));
    const flooded = await startSvcServer({ network: { bind_address: "127.0.0.1:0" }, components: [sensor] });
    const signaling = signalingClient(flooded.url);
    const aborts = offers.map(() => new AbortController());
    const outcomes = offers.map(({ sdp }, i) =>
      drain(signaling.call({ sdp, disableTrickle: true }, { headers: { "rpc-host": hostOf(flooded) }, signal: aborts[i]!.signal })).then(
        () => "answered",
        (error: unknown) => ConnectError.from(error).code,
      ),
    );
    // The answers come back (gathering ends); the offering peers never take them. One address
    // holds at most four offers in the making.
    const settled = await Promise.all(outcomes);
    expect(settled.filter((outcome) => outcome === "answered")).toHaveLength(4);
    expect(settled.filter((outcome) => outcome === Code.ResourceExhausted)).toHaveLength(20);
    for (const { pc } of offers) pc.close();
    const direct = createClient(SensorService, createGrpcTransport({ baseUrl: flooded.url }));
    expect(Object.keys((await direct.getReadings({ name: "temp" })).readings).length).toBeGreaterThan(0);
    await flooded.stop();
  });

  it("is not served with -webrtc=false", async () => {
    const server = await startSvcServer({ network: { bind_address: "127.0.0.1:0" } }, { args: ["-webrtc=false"] });
    try {
      const { sdp, pc } = await newOffer();
      pc.close();
      const error = await callError(drain(signalingClient(server.url).call({ sdp }, { headers: { "rpc-host": hostOf(server) } })));
      expect(error.code).toBe(Code.Unimplemented);
    } finally {
      await server.stop();
    }
  });
});

describe("the data channel", () => {
  it("serves a call, then refuses a stream number used again and an unknown method", async () => {
    const connection = await connect(open);
    await answersReadings(connection, 0n);
    readingsRequest(0n, connection);
    expect(await statusOf(connection, 0n)).toEqual({ code: Code.InvalidArgument, message: "stream 0 was used before" });
    connection.send({ stream: { id: 1n }, type: { case: "headers", value: { method: "/no.Such/Method" } } });
    expect((await statusOf(connection, 1n)).code).toBe(Code.Unimplemented);
    await answersReadings(connection, 2n);
  });

  it("drops frames it cannot read, and frames for streams that are not running, and goes on", async () => {
    const connection = await connect(open);
    connection.sendBytes(new Uint8Array([0xff, 0xff, 0xff, 0x01, 0x02]));
    connection.sendBytes(new Uint8Array(1000).fill(7));
    connection.send({ stream: { id: 99n }, type: { case: "message", value: { hasMessage: true, packetMessage: { data: new Uint8Array(10), eom: true } } } });
    connection.send({ stream: { id: 98n }, type: { case: "rstStream", value: true } });
    await answersReadings(connection, 0n);
  });

  it("refuses a message past 32 MiB even where the port allows more, and the connection goes on", async () => {
    const connection = await connect(roomy);
    connection.send({ stream: { id: 0n }, type: { case: "headers", value: { method: readings } } });
    const packet = new Uint8Array(16 * 1024);
    const packets = (32 * 1024 * 1024) / packet.length + 1;
    for (let i = 0; i < packets; i++) {
      connection.send({ stream: { id: 0n }, type: { case: "message", value: { hasMessage: true, packetMessage: { data: packet, eom: false } } } });
    }
    const status = await statusOf(connection, 0n);
    expect(status.code).toBe(Code.ResourceExhausted);
    expect(status.message).toBe("request message of 33570816 bytes is larger than the 33554432-byte limit of a message over WebRTC");
    await answersReadings(connection, 1n);
  });

  it("answers errors with their status: NOT_FOUND for a missing resource, a server stream's error as trailers alone", async () => {
    const connection = await connect(open);
    readingsRequest(0n, connection, toBinary(GetReadingsRequestSchema, create(GetReadingsRequestSchema, { name: "nope" })));
    expect(await statusOf(connection, 0n)).toEqual({ code: Code.NotFound, message: 'no rdk:component:sensor named "nope"' });
    connection.send({ stream: { id: 1n }, type: { case: "headers", value: { method: "/viam.component.board.v1.BoardService/StreamTicks" } } });
    connection.send({ stream: { id: 1n }, type: { case: "message", value: { hasMessage: true, packetMessage: { data: new Uint8Array([10, 4, 110, 111, 112, 101]), eom: true } } } });
    const trailers = await connection.next(1n, "trailers");
    expect(trailers.type.case === "trailers" && [trailers.type.value.status?.code, trailers.type.value.metadata?.md.opid?.values.length]).toEqual([Code.NotFound, 1]);
    connection.send({ stream: { id: 2n }, type: { case: "headers", value: { method: "/viam.component.sensor.v1.SensorService/Calibrate" } } });
    expect(await statusOf(connection, 2n)).toEqual({ code: Code.Unimplemented, message: "unknown method Calibrate for service viam.component.sensor.v1.SensorService" });
  });

  it("keeps a call's timeout: DEADLINE_EXCEEDED, and the motor it drove stops", async () => {
    const connection = await connect(open);
    connection.send({ stream: { id: 0n }, type: { case: "headers", value: { method: goFor, timeout: { seconds: 0n, nanos: 300_000_000 } } } });
    connection.send({ stream: { id: 0n }, type: { case: "message", value: { hasMessage: true, packetMessage: { data: longGoFor, eom: true } } } });
    expect((await statusOf(connection, 0n)).code).toBe(Code.DeadlineExceeded);
    await motorStopped(open);
  });

  it("cancels a call whose stream the client resets: the motor it drove stops", async () => {
    const connection = await connect(open);
    connection.send({ stream: { id: 0n }, type: { case: "headers", value: { method: goFor } } });
    connection.send({ stream: { id: 0n }, type: { case: "message", value: { hasMessage: true, packetMessage: { data: longGoFor, eom: true } } } });
    const direct = createClient(MotorService, createGrpcTransport({ baseUrl: open.url }));
    await eventually(async () => ((await direct.isMoving({ name: "wheel" })).isMoving ? true : undefined), "the motor moving");
    connection.send({ stream: { id: 0n }, type: { case: "rstStream", value: true } });
    await motorStopped(open);
    await answersReadings(connection, 1n);
  });

  it("lets a peer that connects and never speaks be, while others are served", async () => {
    const silent = await connect(open);
    const other = await connect(open);
    await answersReadings(other, 0n);
    expect(silent.pc.connectionState).toBe("connected");
  });
});

// What the gRPC-web pool's tests share: pools closed after the tests, small loopback servers that
// read HTTP/1.1 requests and answer them as each test says (closed, with every connection they
// took, after the tests), and gRPC-web answers made by hand.
import { create, toBinary } from "@bufbuild/protobuf";
import { ConnectError } from "@connectrpc/connect";
import type http2 from "node:http2";
import net from "node:net";
import { expect } from "vitest";
import { GetReadingsRequestSchema } from "../../proto/gen/common/v1/common_pb.js";
import { createGrpcWebPool, type GrpcWebPool } from "../../targets/linux/remote/index.js";

export const getReadings = "/viam.component.sensor.v1.SensorService/GetReadings";
export const readings = (name: string) => toBinary(GetReadingsRequestSchema, create(GetReadingsRequestSchema, { name }));

const pools: GrpcWebPool[] = [];
const closers: Array<() => Promise<unknown>> = [];

/** Closes every pool made and every server listened on. */
export async function closeHttp1Peers(): Promise<void> {
  for (const made of pools.splice(0)) made.close();
  await Promise.all(closers.splice(0).map((close) => close()));
}

export function pool(url: string, options: Omit<Parameters<typeof createGrpcWebPool>[0], "url"> = {}): GrpcWebPool {
  const made = createGrpcWebPool({ url, peer: "remote test", ...options });
  pools.push(made);
  return made;
}

export async function refusal(answer: Promise<unknown>): Promise<ConnectError> {
  const thrown = await answer.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(thrown).toBeInstanceOf(ConnectError);
  return thrown as ConnectError;
}

/** Listens on loopback; the server and every connection it took are closed after the tests. */
export async function listen(server: net.Server | http2.Http2Server): Promise<number> {
  const sockets = new Set<net.Socket>();
  server.on("connection", (socket: net.Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  closers.push(() => {
    for (const socket of sockets) socket.destroy();
    return new Promise((resolve) => server.close(resolve));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as net.AddressInfo).port;
}

export interface RawRequest {
  readonly head: string;
  readonly message: Buffer;
  readonly socket: net.Socket;
}

export interface RawServer {
  url: string;
  readonly requests: RawRequest[];
  /** Connections taken, and how many of them have closed. */
  opened: number;
  closed: number;
}

/** A TCP server reading HTTP/1.1 requests (with a content-length) and handing each to `answer`. */
export async function rawServer(answer: (request: RawRequest) => void): Promise<RawServer> {
  const served: RawServer = { url: "", requests: [], opened: 0, closed: 0 };
  const server = net.createServer((socket) => {
    served.opened++;
    socket.on("close", () => served.closed++);
    socket.on("error", () => {});
    let held = Buffer.alloc(0);
    socket.on("data", (bytes: Buffer) => {
      held = Buffer.concat([held, bytes]);
      for (let end = held.indexOf("\r\n\r\n"); end >= 0; end = held.indexOf("\r\n\r\n")) {
        const head = held.subarray(0, end).toString("latin1");
        const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
        if (held.length < end + 4 + length) return;
        const request = { head, message: held.subarray(end + 4 + 5, end + 4 + length), socket };
        held = held.subarray(end + 4 + length);
        served.requests.push(request);
        answer(request);
      }
    });
  });
  served.url = `http://127.0.0.1:${await listen(server)}`;
  return served;
}

/** A gRPC-web body: the messages' data frames, then the trailer frame. */
export function grpcWebBody(messages: Uint8Array[], trailers: string): Buffer {
  const frame = (flag: number, payload: Uint8Array) => {
    const bytes = Buffer.alloc(5 + payload.length);
    bytes[0] = flag;
    bytes.writeUInt32BE(payload.length, 1);
    bytes.set(payload, 5);
    return bytes;
  };
  return Buffer.concat([...messages.map((m) => frame(0, m)), frame(0x80, Buffer.from(trailers, "latin1"))]);
}

export function answerOf(body: Buffer, headers = ""): Buffer {
  const head = `HTTP/1.1 200 OK\r\ncontent-type: application/grpc-web+proto\r\ncontent-length: ${body.length}\r\n${headers}\r\n`;
  return Buffer.concat([Buffer.from(head, "latin1"), body]);
}

/** Answers each request with its own message back, the way `headers` say (`connection: close`...). */
export const echo = (headers = "") => (request: RawRequest) => request.socket.write(answerOf(grpcWebBody([request.message], "grpc-status: 0\r\n"), headers));

// How large a request may be, on every transport, and what a caller without credentials can
// make the server read: real clients on loopback (raw HTTP/1.1 sockets, Node's http2 client,
// @grpc/grpc-js, curl) against an API port with a 256 KiB message limit whose calls need a
// token ("Bearer good") except Authenticate. Oversized bodies, declared or streamed, are answered
// RESOURCE_EXHAUSTED saying the size, the limit and the setting, before they are read; calls
// without a token hear UNAUTHENTICATED without their body being read; malformed frames and huge
// headers are refused and the port goes on serving; error messages that echo a request are bounded.
import { create, toBinary } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import * as grpc from "@grpc/grpc-js";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GetReadingsRequestSchema } from "../../../proto/gen/common/v1/common_pb.js";
import { AuthenticateRequestSchema, AuthService } from "../../../proto/gen/proto/rpc/v1/auth_pb.js";
import { createApiServer, type ApiServer } from "../../../targets/linux/server/transport/index.js";
import { eventually } from "../../helpers/eventually.js";
import { requireTools } from "../../helpers/system-tools.js";
import { chunks, concat, grpcFrame, http1Exchange, http2Exchange } from "./raw-clients.js";
import { getReadingsPath, grpcWebTransport, sensorClient, sensorRoutes } from "./sensor-fixture.js";

const run = promisify(execFile);
const limit = 256 * 1024;
const authenticatePath = `/${AuthService.typeName}/Authenticate`;
const bearer = "Bearer good";
const entitiesSeen: number[] = [];

let server: ApiServer;
let dir: string;
beforeAll(async () => {
  requireTools("curl");
  dir = mkdtempSync(join(tmpdir(), "svc-limits-"));
  server = await createApiServer({
    bindAddress: "127.0.0.1:0",
    routes(router) {
      sensorRoutes(router);
      router.service(AuthService, {
        authenticate(req) {
          entitiesSeen.push(req.entity.length);
          return { accessToken: "good" };
        },
      });
    },
    limits: { maxMessageBytes: limit },
    checkRpc: async (headers, path) =>
      path === authenticatePath || headers.authorization === bearer
        ? undefined
        : { code: Code.Unauthenticated, message: "authentication required" },
    openMethods: [authenticatePath],
  });
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const readingsFrame = (name: string) => grpcFrame(toBinary(GetReadingsRequestSchema, create(GetReadingsRequestSchema, { name })));
// A request message just within the limit.
const fullFrame = readingsFrame("n".repeat(limit - 10));
const webHead = (headers: Record<string, string | number>, path = getReadingsPath) =>
  `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1:${server.port}\r\ncontent-type: application/grpc-web+proto\r\n` +
  Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join("") +
  "\r\n";
const grpcHeaders = (extra: Record<string, string> = {}) => ({
  ":path": getReadingsPath,
  "content-type": "application/grpc",
  authorization: bearer,
  ...extra,
});
// Chunked transfer coding around each body chunk, for an HTTP/1.1 body of no declared length.
function* chunked(body: Iterable<Uint8Array>): Generator<Uint8Array> {
  for (const chunk of body) {
    yield Buffer.from(`${chunk.length.toString(16)}\r\n`);
    yield chunk;
    yield Buffer.from("\r\n");
  }
}
// The status of a gRPC-web answer over a raw socket: in the headers (trailers-only) or in the
// trailer frame at the end of the body.
const answered = (exchange: { text(): string }, what: string) =>
  eventually(() => {
    const text = exchange.text();
    const status = /grpc-status: ?(\d+)/.exec(text)?.[1];
    if (status === undefined) return undefined;
    return { status, message: decodeURIComponent(/grpc-message: ?([^\r\n]*)/.exec(text)?.[1] ?? "") };
  }, what);

async function stillServes(): Promise<void> {
  const readings = await sensorClient(grpcWebTransport(server.url)).getReadings({ name: "temp" }, { headers: { authorization: bearer } });
  expect(readings.readings.celsius?.kind.value).toBe(21.5);
}

describe("a body larger than the limit", () => {
  it("gRPC-web over HTTP/1.1, declared: RESOURCE_EXHAUSTED before any of it is sent, and the connection closes", async () => {
    const exchange = http1Exchange(server.port, webHead({ authorization: bearer, "content-length": 100_000_005 }));
    const answer = await answered(exchange, "the answer to a 100 MB declared body");
    expect(answer.status).toBe("8");
    expect(answer.message).toBe(
      `request body of 100000005 bytes is larger than the ${limit}-byte message limit (network.max_message_bytes changes it)`,
    );
    await eventually(() => exchange.closed() || undefined, "the server to close the connection");
    await stillServes();
  });

  it("gRPC-web over HTTP/1.1, streamed: a message prefix over the limit is refused at the prefix", async () => {
    const body = chunked(concat([grpcFrame(new Uint8Array(0), { declaredLength: 1 << 20 })], chunks(16 * 1024, 4096)));
    const exchange = http1Exchange(server.port, webHead({ authorization: bearer, "transfer-encoding": "chunked" }), { body });
    const answer = await answered(exchange, "the answer to a 1 MiB message prefix");
    expect(answer.status).toBe("8");
    expect(answer.message).toContain(`request message of 1048576 bytes is larger than the ${limit}-byte message limit`);
    await eventually(() => exchange.closed() || undefined, "the server to close the connection");
    expect(exchange.sent()).toBeLessThan(64 * 1024 * 1024);
  });

  it("gRPC-web over HTTP/1.1, streamed: a body going on past the limit is cut off there", async () => {
    // A message as large as the limit allows, then far more bytes.
    const body = chunked(concat([fullFrame], chunks(16 * 1024, 4096)));
    const exchange = http1Exchange(server.port, webHead({ authorization: bearer, "transfer-encoding": "chunked" }), { body });
    const answer = await answered(exchange, "the answer to an endless body");
    expect(answer.status).toBe("8");
    expect(answer.message).toMatch(/request body of at least \d+ bytes is larger than the 262144-byte message limit/);
    await eventually(() => exchange.closed() || undefined, "the server to close the connection");
  });

  it("gRPC over HTTP/2, declared, streamed and cut off: RESOURCE_EXHAUSTED, the stream reset, the rest never sent", async () => {
    const declared = http2Exchange(server.port, grpcHeaders({ "content-length": "100000005" }), chunks(16 * 1024, 6400), { endless: true });
    const prefix = http2Exchange(server.port, grpcHeaders(), concat([grpcFrame(new Uint8Array(0), { declaredLength: 1 << 20 })], chunks(16 * 1024, 6400)));
    const endless = http2Exchange(server.port, grpcHeaders(), concat([fullFrame], chunks(16 * 1024, 6400)));
    for (const exchange of [declared, prefix, endless]) {
      await eventually(() => exchange.closed() || undefined, "the stream to end");
      expect(exchange.status()).toBe("8");
      expect(exchange.message()).toContain("network.max_message_bytes");
      expect(exchange.sent()).toBeLessThan(16 * 1024 * 6400);
    }
    expect(declared.message()).toContain("request body of 100000005 bytes");
    expect(prefix.message()).toContain("request message of 1048576 bytes");
    expect(endless.message()).toMatch(/request body of at least \d+ bytes/);
  });

  it("@grpc/grpc-js: a request message over the limit is RESOURCE_EXHAUSTED naming the setting", async () => {
    {
      const meta = new grpc.Metadata();
      meta.set("authorization", bearer);
      const error = await new Promise<grpc.ServiceError>((resolve) => {
        const raw = new grpc.Client(`127.0.0.1:${server.port}`, grpc.credentials.createInsecure());
        raw.makeUnaryRequest(
          getReadingsPath,
          (m: Uint8Array) => Buffer.from(m),
          (b: Buffer) => b,
          toBinary(GetReadingsRequestSchema, create(GetReadingsRequestSchema, { name: "n".repeat(300_000) })),
          meta,
          (e) => {
            raw.close();
            resolve(e!);
          },
        );
      });
      expect(error.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
      expect(error.details).toMatch(/request message of 30\d+ bytes is larger than the 262144-byte message limit \(network.max_message_bytes changes it\)/);
    }
  });

  it("Connect with curl: an oversized JSON body is resource_exhausted; with Expect: 100-continue it is never sent", async () => {
    const file = join(dir, "big.json");
    writeFileSync(file, JSON.stringify({ name: "n".repeat(2 * 1024 * 1024) }));
    const url = `${server.url}${getReadingsPath}`;
    const common = ["-s", "-H", "content-type: application/json", "-H", `authorization: ${bearer}`, "--data-binary", `@${file}`];
    const plain = await run("curl", [...common, "-H", "Expect:", "-w", "\n%{http_code}", url]);
    expect(plain.stdout).toContain('"code":"resource_exhausted"');
    expect(plain.stdout).toContain("network.max_message_bytes");
    const asked = await run("curl", [...common, "-H", "Expect: 100-continue", "-w", "\n%{http_code} %{size_upload}", url]);
    expect(asked.stdout).toContain('"code":"resource_exhausted"');
    expect(asked.stdout.trimEnd().endsWith(" 0")).toBe(true);
  });
});

describe("a call without credentials", () => {
  it("hears UNAUTHENTICATED over HTTP/1.1 before its declared 100 MB body is sent", async () => {
    const exchange = http1Exchange(server.port, webHead({ "content-length": 100_000_005 }));
    const answer = await answered(exchange, "the answer to an unauthenticated 100 MB body");
    expect(answer.status).toBe("16");
    await eventually(() => exchange.closed() || undefined, "the server to close the connection");
  });

  it("hears UNAUTHENTICATED over HTTP/2 while its endless body is still coming, and the stream is reset", async () => {
    const exchange = http2Exchange(server.port, { ":path": getReadingsPath, "content-type": "application/grpc" }, chunks(16 * 1024, 6400), {
      endless: true,
    });
    await eventually(() => exchange.closed() || undefined, "the stream to end");
    expect(exchange.status()).toBe("16");
    expect(exchange.sent()).toBeLessThan(1024 * 1024);
  });

  it("may call Authenticate, whose body is held to a small limit before the method sees it", async () => {
    const call = (entity: string) =>
      http2Exchange(server.port, { ":path": authenticatePath, "content-type": "application/grpc" }, [
        grpcFrame(toBinary(AuthenticateRequestSchema, create(AuthenticateRequestSchema, { entity }))),
      ]);
    const small = call("key-id");
    await eventually(() => small.closed() || undefined, "the small Authenticate");
    expect(small.status()).toBe("0");
    const large = call("e".repeat(5 * 1024 * 1024));
    await eventually(() => large.closed() || undefined, "the large Authenticate");
    expect(large.status()).toBe("8");
    expect(large.message()).toContain("is larger than the 65536-byte limit for calls made without credentials");
    expect(entitiesSeen).toEqual([6]);
  });
});

describe("malformed frames and huge headers", () => {
  const frameCall = (frame: Buffer) => http2Exchange(server.port, grpcHeaders(), [frame]);

  it("a truncated frame, a length of 4 GiB and a compressed flag without an encoding are each refused, and the port serves on", async () => {
    const good = readingsFrame("temp");
    const truncated = frameCall(good.subarray(0, good.length - 3));
    const huge = frameCall(grpcFrame(new Uint8Array(8), { declaredLength: 0xffffffff }));
    const compressed = frameCall(grpcFrame(good.subarray(5), { flags: 1 }));
    for (const exchange of [truncated, huge, compressed]) await eventually(() => exchange.closed() || undefined, "the malformed call to end");
    expect(truncated.status()).toBe(String(Code.InvalidArgument));
    expect(huge.status()).toBe("8");
    expect(huge.message()).toContain("request message of 4294967295 bytes");
    expect(compressed.status()).not.toBe("0");
    await stillServes();
  });

  it("headers past 16 KiB are refused over HTTP/1.1 (431) and HTTP/2, and the port serves on", async () => {
    const h1 = http1Exchange(server.port, webHead({ authorization: bearer, "x-huge": "h".repeat(100_000), "content-length": 0 }));
    await eventually(() => (h1.text().startsWith("HTTP/1.1 431") ? true : undefined), "431 over HTTP/1.1");
    const h2 = http2Exchange(server.port, grpcHeaders({ "x-huge": "h".repeat(100_000) }), [readingsFrame("temp")]);
    await eventually(() => h2.closed() || undefined, "the HTTP/2 stream to end");
    expect(h2.status()).toBeUndefined();
    await stillServes();
  });
});

describe("an error message that echoes the request", () => {
  it("is bounded in the grpc-message trailer (@grpc/grpc-js), in gRPC-web and in a Connect error body", async () => {
    const name = "n".repeat(70_000);
    const meta = new grpc.Metadata();
    meta.set("authorization", bearer);
    const raw = new grpc.Client(`127.0.0.1:${server.port}`, grpc.credentials.createInsecure());
    const error = await new Promise<grpc.ServiceError>((resolve) =>
      raw.makeUnaryRequest(
        getReadingsPath,
        (m: Uint8Array) => Buffer.from(m),
        (b: Buffer) => b,
        toBinary(GetReadingsRequestSchema, create(GetReadingsRequestSchema, { name })),
        meta,
        (e) => resolve(e!),
      ),
    );
    raw.close();
    expect(error.code).toBe(grpc.status.NOT_FOUND);
    expect(error.details.length).toBeLessThanOrEqual(1100);
    expect(error.details).toMatch(/^resource "rdk:component:sensor\/n+… \(70\d{3} bytes\)$/);

    const web = await sensorClient(grpcWebTransport(server.url))
      .getReadings({ name }, { headers: { authorization: bearer } })
      .catch((e: unknown) => ConnectError.from(e));
    expect(web).toMatchObject({ code: Code.NotFound });
    expect((web as ConnectError).rawMessage.length).toBeLessThanOrEqual(1100);

    const connect = await fetch(`${server.url}${getReadingsPath}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: bearer },
      body: JSON.stringify({ name: "n".repeat(200_000) }),
    });
    expect(connect.status).toBe(404);
    const body = await connect.text();
    expect(body.length).toBeLessThan(2048);
    expect(JSON.parse(body)).toMatchObject({ code: "not_found" });
  });
});

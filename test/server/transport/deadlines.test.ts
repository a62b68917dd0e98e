// A caller's deadline (grpc-timeout for gRPC and gRPC-web, connect-timeout-ms for Connect) is
// the server's too: a handler that never looks at its signal still has the call answered
// DEADLINE_EXCEEDED at the deadline, by the server itself (curl shows the server's own status,
// where @grpc/grpc-js would give up on its side anyway), its signal is aborted, a stream stops
// between messages, and a body still arriving at the deadline is not waited for.
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
import { BoardService, StreamTicksRequestSchema } from "../../../proto/gen/component/board/v1/board_pb.js";
import { SensorService } from "../../../proto/gen/component/sensor/v1/sensor_pb.js";
import { createApiServer, type ApiServer } from "../../../targets/linux/server/transport/index.js";
import { eventually } from "../../helpers/eventually.js";
import { requireTools } from "../../helpers/system-tools.js";
import { grpcFrame, http1Exchange, http2Exchange } from "./raw-clients.js";
import { getReadingsPath } from "./sensor-fixture.js";

const run = promisify(execFile);
const streamTicksPath = `/${BoardService.typeName}/StreamTicks`;
// Why each handler's signal was aborted, by the name the call asked for.
const aborted = new Map<string, Code | undefined>();
const never = () => new Promise<never>(() => {});

let server: ApiServer;
let dir: string;
beforeAll(async () => {
  requireTools("curl");
  dir = mkdtempSync(join(tmpdir(), "svc-deadlines-"));
  server = await createApiServer({
    bindAddress: "127.0.0.1:0",
    routes(router) {
      // Handlers that pay no attention to their signal: only the server can end their calls.
      router.service(SensorService, {
        async getReadings(req, context) {
          context.signal.addEventListener("abort", () => aborted.set(req.name, ConnectError.from(context.signal.reason).code));
          return never();
        },
      });
      router.service(BoardService, {
        async *streamTicks(req, context) {
          context.signal.addEventListener("abort", () => aborted.set(req.name, ConnectError.from(context.signal.reason).code));
          yield { pinName: "a", high: true, time: 1n };
          await never();
        },
      });
    },
  });
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const readings = (name: string) => toBinary(GetReadingsRequestSchema, create(GetReadingsRequestSchema, { name }));

function frameFile(name: string, bytes: Uint8Array): string {
  const file = join(dir, name);
  writeFileSync(file, bytes);
  return file;
}

describe("a handler that ignores its signal", () => {
  it("@grpc/grpc-js: DEADLINE_EXCEEDED, and the handler's signal is aborted with it", async () => {
    const client = new grpc.Client(`127.0.0.1:${server.port}`, grpc.credentials.createInsecure());
    const error = await new Promise<grpc.ServiceError>((resolve) =>
      client.makeUnaryRequest(getReadingsPath, (m: Uint8Array) => Buffer.from(m), (b: Buffer) => b, readings("grpc-js"), new grpc.Metadata(), { deadline: Date.now() + 300 }, (e) =>
        resolve(e!),
      ),
    );
    client.close();
    expect(error.code).toBe(grpc.status.DEADLINE_EXCEEDED);
    await eventually(() => (aborted.has("grpc-js") ? true : undefined), "the handler's signal to be aborted");
  });

  it("curl, gRPC over HTTP/2: the server answers grpc-status 4 at the caller's grpc-timeout", async () => {
    const body = frameFile("h2.bin", grpcFrame(readings("curl-h2")));
    const { stdout } = await run("curl", [
      "-s", "--http2-prior-knowledge", "--max-time", "10", "-D", "-", "-o", "/dev/null",
      "-H", "content-type: application/grpc", "-H", "te: trailers", "-H", "grpc-timeout: 300m",
      "--data-binary", `@${body}`, `${server.url}${getReadingsPath}`,
    ]);
    expect(stdout).toMatch(/grpc-status: 4/);
    expect(stdout).toContain("grpc-message: the call passed its deadline (grpc-timeout: 300m)");
    expect(aborted.get("curl-h2")).toBe(Code.DeadlineExceeded);
  });

  it("curl, gRPC-web over HTTP/1.1: grpc-status 4 in the trailer", async () => {
    const body = frameFile("web.bin", grpcFrame(readings("curl-web")));
    const { stdout } = await run("curl", [
      "-s", "--http1.1", "--max-time", "10",
      "-H", "content-type: application/grpc-web+proto", "-H", "grpc-timeout: 300m",
      "--data-binary", `@${body}`, `${server.url}${getReadingsPath}`,
    ]);
    expect(stdout).toMatch(/grpc-status: ?4/);
    expect(aborted.get("curl-web")).toBe(Code.DeadlineExceeded);
  });

  it("curl, Connect: connect-timeout-ms ends the call with deadline_exceeded", async () => {
    const { stdout } = await run("curl", [
      "-s", "--max-time", "10", "-w", "\n%{http_code}",
      "-H", "content-type: application/json", "-H", "connect-timeout-ms: 300",
      "--data-binary", JSON.stringify({ name: "curl-connect" }), `${server.url}${getReadingsPath}`,
    ]);
    const [body, status] = stdout.split("\n");
    expect(JSON.parse(body!)).toMatchObject({ code: "deadline_exceeded" });
    expect(status).toBe("504");
    expect(aborted.get("curl-connect")).toBe(Code.DeadlineExceeded);
  });

  it("a server stream stops at the deadline, after the messages it sent", async () => {
    const frame = grpcFrame(toBinary(StreamTicksRequestSchema, create(StreamTicksRequestSchema, { name: "stream" })));
    const exchange = http2Exchange(server.port, { ":path": streamTicksPath, "content-type": "application/grpc", "grpc-timeout": "300m" }, [frame]);
    await eventually(() => exchange.closed() || undefined, "the stream to end");
    expect(exchange.status()).toBe("4");
    expect(aborted.get("stream")).toBe(Code.DeadlineExceeded);
  });
});

describe("a body still arriving at the deadline", () => {
  it("is not waited for: DEADLINE_EXCEEDED over HTTP/1.1 and HTTP/2", async () => {
    const frame = grpcFrame(readings("slow-body"));
    const head =
      `POST ${getReadingsPath} HTTP/1.1\r\nhost: 127.0.0.1:${server.port}\r\ncontent-type: application/grpc-web+proto\r\n` +
      `grpc-timeout: 300m\r\ncontent-length: ${frame.length}\r\n\r\n`;
    const web = http1Exchange(server.port, head, { body: [frame.subarray(0, 4)] });
    await eventually(() => (/grpc-status: ?4/.test(web.text()) ? true : undefined), "DEADLINE_EXCEEDED over HTTP/1.1");
    web.close();

    const h2 = http2Exchange(server.port, { ":path": getReadingsPath, "content-type": "application/grpc", "grpc-timeout": "300m" }, [frame.subarray(0, 4)], {
      endless: true,
    });
    await eventually(() => h2.closed() || undefined, "the HTTP/2 stream to end");
    expect(h2.status()).toBe("4");
  });
});

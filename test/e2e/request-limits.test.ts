// The real svc-server with API keys and `network.max_message_bytes` at 16 MiB, against what a
// hostile caller on the network sends: a large body without credentials is answered
// UNAUTHENTICATED before it is read (over HTTP/1.1 and HTTP/2); a message over the setting is
// RESOURCE_EXHAUSTED naming it; Authenticate's body is held small, and what its failures log is
// bounded and held back per address; a long resource name comes back bounded in the gRPC status
// and in a Connect error body.
import { create, toBinary } from "@bufbuild/protobuf";
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GetReadingsRequestSchema } from "../../proto/gen/common/v1/common_pb.js";
import { SensorService } from "../../proto/gen/component/sensor/v1/sensor_pb.js";
import { AuthService } from "../../proto/gen/proto/rpc/v1/auth_pb.js";
import { eventually } from "../helpers/eventually.js";
import { createGrpcJsClient, type GrpcJsClient } from "../helpers/grpc-js-client.js";
import { logLines } from "../helpers/log-lines.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";
import { chunks, http1Exchange, http2Exchange } from "../server/transport/raw-clients.js";

const apiKey = { id: "key-id", key: "secret-key-value" };
const maxMessageBytes = 16 * 1024 * 1024;
const readingsPath = `/${SensorService.typeName}/GetReadings`;
const config = {
  auth: { handlers: [{ type: "api-key", config: { [apiKey.id]: apiKey.key } }] },
  network: { max_message_bytes: maxMessageBytes },
  components: [{ name: "temp", api: "rdk:component:sensor", model: "fake", attributes: { readings: { celsius: 22 } } }],
};

let server: SvcServerProcess;
let client: GrpcJsClient;
let bearer: Record<string, string>;
let port: number;
beforeAll(async () => {
  server = await startSvcServer(config);
  port = Number(new URL(server.url).port);
  client = createGrpcJsClient(server.url);
  const { accessToken } = await client.call(AuthService.method.authenticate, {
    entity: apiKey.id,
    credentials: { type: "api-key", payload: apiKey.key },
  });
  bearer = { authorization: `Bearer ${accessToken}` };
});
afterAll(async () => {
  client?.close();
  await server?.stop();
});

const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (e: unknown) => e as grpc.ServiceError);

describe("without credentials", () => {
  it("a 100 MB gRPC-web body is answered UNAUTHENTICATED before any of it is sent", async () => {
    const head =
      `POST ${readingsPath} HTTP/1.1\r\nhost: localhost:${port}\r\ncontent-type: application/grpc-web+proto\r\n` +
      `content-length: 100000000\r\n\r\n`;
    const exchange = http1Exchange(port, head);
    await eventually(() => (exchange.text().includes("grpc-status: 16") ? true : undefined), "UNAUTHENTICATED");
    await eventually(() => exchange.closed() || undefined, "the connection to close");
  });

  it("an endless gRPC body over HTTP/2 is answered UNAUTHENTICATED and its stream reset", async () => {
    const exchange = http2Exchange(port, { ":path": readingsPath, "content-type": "application/grpc" }, chunks(16 * 1024, 6400), { endless: true });
    await eventually(() => exchange.closed() || undefined, "the stream to end");
    expect(exchange.status()).toBe("16");
    expect(exchange.sent()).toBeLessThan(1024 * 1024);
  });

  it("Authenticate with a 5 MB entity is RESOURCE_EXHAUSTED, and nothing of it is logged", async () => {
    const error = await failure(
      client.call(AuthService.method.authenticate, { entity: "e".repeat(5 * 1024 * 1024), credentials: { type: "api-key", payload: "x" } }),
    );
    expect(error).toMatchObject({ code: grpc.status.RESOURCE_EXHAUSTED });
    expect(error?.details).toContain("limit for calls made without credentials");
    expect(server.stdout() + server.stderr()).not.toContain("e".repeat(1000));
  });

  it("failed Authenticate calls with a new 10 KB entity each log a few bounded lines, not one each", async () => {
    for (let i = 0; i < 20; i++) {
      const entity = `${i}-${"x".repeat(10_000)}`;
      const error = await failure(client.call(AuthService.method.authenticate, { entity, credentials: { type: "api-key", payload: "wrong" } }));
      expect(error).toMatchObject({ code: grpc.status.PERMISSION_DENIED });
    }
    const lines = await eventually(() => {
      const found = logLines(server.stdout()).filter((l) => l.msg === "authentication failed: invalid credentials");
      return found.length > 0 ? found : undefined;
    }, "the failures in the log");
    expect(lines.length).toBe(5);
    for (const line of lines) expect(String(line.entity)).toMatch(/^\d+-x{200,}… \(10\d{3} bytes\)$/);
    expect(lines[4]).toMatchObject({ note: "further lines from this address are held back for 60 s" });
  });
});

describe("with credentials", () => {
  it("a message over network.max_message_bytes is RESOURCE_EXHAUSTED naming the setting", async () => {
    const error = await failure(client.call(SensorService.method.getReadings, { name: "n".repeat(maxMessageBytes + 1) }, bearer));
    expect(error).toMatchObject({ code: grpc.status.RESOURCE_EXHAUSTED });
    expect(error?.details).toMatch(/request message of 167772\d\d bytes is larger than the 16777216-byte message limit \(network.max_message_bytes changes it\)/);
  });

  it("a 70 KB resource name comes back bounded in grpc-message, and a 10 MB one in a Connect error body", async () => {
    const error = await failure(client.call(SensorService.method.getReadings, { name: "n".repeat(70_000) }, bearer));
    expect(error).toMatchObject({ code: grpc.status.NOT_FOUND });
    expect(error!.details.length).toBeLessThan(1024);
    expect(error!.details).toMatch(/… \(70\d{3} bytes\)$/);

    const response = await fetch(`${server.url}${readingsPath}`, {
      method: "POST",
      headers: { "content-type": "application/proto", ...bearer },
      body: toBinary(GetReadingsRequestSchema, create(GetReadingsRequestSchema, { name: "n".repeat(10 * 1024 * 1024) })),
    });
    expect(response.status).toBe(404);
    const body = await response.text();
    expect(body.length).toBeLessThan(2048);
    expect(JSON.parse(body)).toMatchObject({ code: "not_found" });
  });

  it("still reads the sensor after all of the above", async () => {
    const answer = await client.call(SensorService.method.getReadings, { name: "temp" }, bearer);
    expect(answer.readings.celsius?.kind.value).toBe(22);
  });
});

// With a certificate and key, the same port serves gRPC over HTTP/2 and gRPC-web over HTTP/1.1
// inside TLS. The certificate is made for the test with the openssl command.
import { Code, ConnectError } from "@connectrpc/connect";
import * as grpc from "@grpc/grpc-js";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { create } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSelfSignedCertificate } from "../../helpers/self-signed.js";
import { GetReadingsRequestSchema } from "../../../proto/gen/common/v1/common_pb.js";
import { createApiServer, peerKey, type ApiServer, type Peer } from "../../../targets/linux/server/transport/index.js";
import {
  getReadingsPath,
  grpcJsCaller,
  grpcTransport,
  grpcWebTransport,
  readingsJson,
  sensorClient,
  sensorRoutes,
  tempReadings,
} from "./sensor-fixture.js";

const dir = mkdtempSync(join(tmpdir(), "svc-transport-tls-"));
const certFile = join(dir, "cert.pem");
const keyFile = join(dir, "key.pem");
let server: ApiServer | undefined;
const peers: Peer[] = [];

beforeAll(async () => {
  makeSelfSignedCertificate(dir);
  server = await createApiServer({
    bindAddress: "127.0.0.1:0",
    routes: sensorRoutes,
    tls: { certFile, keyFile },
    interceptors: [(next) => (req) => (peers.push(req.contextValues.get(peerKey)), next(req))],
  });
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("TLS (the openssl command makes the certificate)", () => {
  it("serves gRPC over HTTP/2 and gRPC-web over HTTP/1.1 on one https port", async () => {
    const ca = readFileSync(certFile);
    expect(server!.url).toBe(`https://127.0.0.1:${server!.port}`);
    for (const transport of [grpcTransport(server!.url, { ca }), grpcWebTransport(server!.url, { ca })]) {
      const sensor = sensorClient(transport);
      expect(readingsJson(await sensor.getReadings({ name: "temp" }))).toEqual(tempReadings);
      const missing = await sensor.getReadings({ name: "nope" }).catch((e: unknown) => ConnectError.from(e));
      expect(missing).toMatchObject({ code: Code.NotFound, rawMessage: 'resource "rdk:component:sensor/nope" not found' });
    }
    expect(peers.at(-1)).toEqual({ address: "127.0.0.1", secure: true });
  });

  it("serves @grpc/grpc-js with TLS credentials", async () => {
    const client = grpcJsCaller(`localhost:${server!.port}`, grpc.credentials.createSsl(readFileSync(certFile)));
    try {
      const request = create(GetReadingsRequestSchema, { name: "temp" });
      expect(readingsJson(await client.call(getReadingsPath, request))).toEqual(tempReadings);
      await expect(client.call("/viam.component.sensor.v1.SensorService/Nope", request)).rejects.toMatchObject({
        code: Code.Unimplemented,
      });
    } finally {
      client.close();
    }
  });

  it("does not answer cleartext on the TLS port", async () => {
    const attempt = sensorClient(grpcWebTransport(`http://127.0.0.1:${server!.port}`)).getReadings({ name: "temp" });
    await expect(attempt).rejects.toBeInstanceOf(ConnectError);
  });
});

describe("TLS files", () => {
  it("a missing certificate file is named in the error", async () => {
    const attempt = createApiServer({
      bindAddress: "127.0.0.1:0",
      routes: sensorRoutes,
      tls: { certFile: join(dir, "absent.pem"), keyFile },
    });
    await expect(attempt).rejects.toThrow(`tls_cert_file ${JSON.stringify(join(dir, "absent.pem"))}: no such file`);
  });

  it("a key that is not a key is refused with a clear error", async () => {
    const attempt = createApiServer({
      bindAddress: "127.0.0.1:0",
      routes: sensorRoutes,
      tls: { certFile, keyFile: certFile },
    });
    await expect(attempt).rejects.toThrow(/^tls: the certificate or key is not usable/);
  });
});

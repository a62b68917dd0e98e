// svc-cloud over TLS: with a certificate and key it serves HTTPS on an address off loopback
// without --insecure, HTTP/2 (gRPC) and HTTP/1.1 (gRPC-web) chosen by ALPN on one port, and the
// credentials file it prints names the https address. A client that does not trust the
// certificate is refused by its own TLS check, and plain HTTP to the port gets nothing.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuthService } from "../../proto/gen/proto/rpc/v1/auth_pb.js";
import { startCloud, type CloudProcess } from "../helpers/cloud-process.js";
import { makeSelfSignedCertificate } from "../helpers/self-signed.js";

const dir = mkdtempSync(join(tmpdir(), "svc-cloud-tls-"));
let certFile = "";
let cloud: CloudProcess | undefined;

beforeAll(async () => {
  let keyFile: string;
  ({ certFile, keyFile } = makeSelfSignedCertificate(dir));
  // 0.0.0.0 would be refused without TLS; with it, svc-cloud serves there.
  cloud = await startCloud({ args: ["--listen", "0.0.0.0:0", "--tls-cert", certFile, "--tls-key", keyFile] });
});
afterAll(async () => {
  await cloud?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function signInOver(transport: ReturnType<typeof createGrpcTransport>) {
  return createClient(AuthService, transport).authenticate({ entity: cloud!.init.api_key.id, credentials: { type: "api-key", payload: cloud!.init.api_key.key } });
}

describe("svc-cloud over TLS", () => {
  it("serves gRPC over HTTP/2 and gRPC-web over HTTP/1.1 on one HTTPS port", async () => {
    expect(cloud!.url).toMatch(/^https:\/\//);
    const baseUrl = `https://localhost:${new URL(cloud!.url).port}`;
    const ca = readFileSync(certFile);
    const h2 = await signInOver(createGrpcTransport({ baseUrl, nodeOptions: { ca } }));
    const h1 = await signInOver(createGrpcWebTransport({ baseUrl, httpVersion: "1.1", nodeOptions: { ca } }));
    expect(h2.accessToken).toMatch(/^ey/);
    expect(h1.accessToken).toMatch(/^ey/);
  });

  it("names its https address, with the host's name for a wildcard address, in a machine's credentials file", () => {
    const credentials = cloud!.createMachine("over-tls");
    expect(credentials.cloud.app_address).toBe(`https://${hostname()}:${new URL(cloud!.url).port}`);
  });

  it("is refused by a client that does not trust its certificate, and answers plain HTTP with nothing", async () => {
    const baseUrl = `https://localhost:${new URL(cloud!.url).port}`;
    await expect(signInOver(createGrpcTransport({ baseUrl }))).rejects.toThrow(/self-signed|certificate/i);
    await expect(fetch(`http://localhost:${new URL(cloud!.url).port}/`)).rejects.toThrow();
  });
});

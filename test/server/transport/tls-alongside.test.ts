// TLS beside cleartext on one port (a cloud-managed machine's, with svc-cloud's certificate): a
// client that opens with a TLS handshake gets TLS (gRPC over HTTP/2 and gRPC-web over HTTP/1.1),
// every other client cleartext as before; a new certificate serves new connections; one that
// cannot be used changes nothing. The hostile half: a handshake that stalls, and bytes that only
// look like one, are closed without holding the port, and a port offering no TLS closes a TLS
// client at once. Certificates are made with the openssl command.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { connect as connectTcp } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect as connectTls } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSelfSignedCertificate } from "../../helpers/self-signed.js";
import { createApiServer, ListenError, type ApiServer } from "../../../targets/linux/server/transport/index.js";
import { grpcTransport, grpcWebTransport, readingsJson, sensorClient, sensorRoutes, tempReadings } from "./sensor-fixture.js";

const dir = mkdtempSync(join(tmpdir(), "svc-tls-alongside-"));
let first: { cert: Buffer; key: Buffer };
let second: { cert: Buffer; key: Buffer };
const servers: ApiServer[] = [];

beforeAll(() => {
  const made = (name: string) => {
    const sub = join(dir, name);
    const files = makeSelfSignedCertificate(mkdtempSync(sub));
    return { cert: readFileSync(files.certFile), key: readFileSync(files.keyFile) };
  };
  first = made("first");
  second = made("second");
});
afterAll(async () => {
  for (const server of servers) await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function started(options: Partial<Parameters<typeof createApiServer>[0]> = {}): Promise<ApiServer> {
  const server = await createApiServer({ bindAddress: "127.0.0.1:0", routes: sensorRoutes, limits: { headersTimeoutMs: 300, firstBytesTimeoutMs: 300 }, ...options });
  servers.push(server);
  return server;
}

/** The certificate the port presents, as PEM-free bytes to compare; rejects when the port closes the handshake. */
function presented(port: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = connectTls({ host: "127.0.0.1", port, rejectUnauthorized: false }, () => {
      resolve(socket.getPeerCertificate().raw);
      socket.end();
    });
    socket.once("error", reject);
  });
}

const der = (pem: Buffer) => Buffer.from(pem.toString().replace(/-----[^-]+-----|\s/g, ""), "base64");

/** Writes `bytes` and resolves when the port closes the connection. */
function closedAfter(port: number, bytes: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connectTcp({ host: "127.0.0.1", port }, () => socket.write(bytes));
    socket.resume();
    socket.once("close", () => resolve());
    socket.once("error", (e: NodeJS.ErrnoException) => (e.code === "ECONNRESET" ? undefined : reject(e)));
  });
}

describe("TLS beside cleartext", () => {
  it("serves TLS to a client that asks for it and cleartext to one that does not, on one port", async () => {
    const server = await started({ tlsAlongside: first });
    expect(server.secure).toBe(false);
    const https = `https://localhost:${server.port}`;
    for (const transport of [grpcTransport(https, { ca: first.cert }), grpcWebTransport(https, { ca: first.cert }), grpcTransport(server.url), grpcWebTransport(server.url)]) {
      expect(readingsJson(await sensorClient(transport).getReadings({ name: "temp" }))).toEqual(tempReadings);
    }
  });

  it("presents a new certificate to new connections, and keeps the one it has when offered one it cannot use", async () => {
    const server = await started();
    // Nothing offered yet: a TLS client is closed at once, cleartext is served.
    await expect(presented(server.port)).rejects.toThrow();
    expect(readingsJson(await sensorClient(grpcTransport(server.url)).getReadings({ name: "temp" }))).toEqual(tempReadings);
    server.offerTls(first);
    expect(await presented(server.port)).toEqual(der(first.cert));
    server.offerTls(second);
    expect(await presented(server.port)).toEqual(der(second.cert));
    expect(() => server.offerTls({ cert: first.cert, key: second.key })).toThrow(ListenError);
    expect(() => server.offerTls({ cert: "not a certificate", key: "nor a key" })).toThrow(/tls: the certificate or key is not usable/);
    expect(await presented(server.port)).toEqual(der(second.cert));
  });

  it("closes a handshake that stalls and bytes that only look like one, and goes on serving", async () => {
    const server = await started({ tlsAlongside: first });
    // A handshake record's first byte, then nothing: closed when the handshake's time is up.
    await closedAfter(server.port, Buffer.from([0x16]));
    await closedAfter(server.port, Buffer.from([0x16, 0x03, 0x01, 0xff, 0xff, ...Buffer.from("not a client hello")]));
    await closedAfter(server.port, Buffer.concat([Buffer.from([0x16]), Buffer.alloc(64 * 1024, 0x41)]));
    expect(readingsJson(await sensorClient(grpcTransport(`https://localhost:${server.port}`, { ca: first.cert })).getReadings({ name: "temp" }))).toEqual(tempReadings);
  });

  it("refuses another certificate on a port that serves TLS from its own files", async () => {
    const files = makeSelfSignedCertificate(mkdtempSync(join(dir, "files")));
    const server = await started({ tls: files });
    expect(() => server.offerTls(first)).toThrow(/offers no other certificate/);
  });
});

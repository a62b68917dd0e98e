// Requests that start and never finish, against the real svc-cloud: a body that stops arriving,
// over HTTP/1.1 and HTTP/2, and an HTTP/2 connection that opens no stream. Each is let go by the
// server, which keeps serving, and none keeps it from stopping when asked.
import { connect } from "node:net";
import { request } from "node:http";
import http2 from "node:http2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn } from "../helpers/cloud-client.js";
import { startCloud, type CloudProcess } from "../helpers/cloud-process.js";

let cloud: CloudProcess;
beforeAll(async () => {
  cloud = await startCloud();
});
afterAll(() => cloud?.stop());

const AUTHENTICATE = "/proto.rpc.v1.AuthService/Authenticate";

describe("a request whose body stops arriving", () => {
  it("is let go over HTTP/1.1", async () => {
    const port = Number(new URL(cloud.url).port);
    await new Promise<void>((resolve, reject) => {
      const socket = connect(port, "localhost", () => {
        socket.write(`POST ${AUTHENTICATE} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/grpc-web+proto\r\nContent-Length: 100\r\n\r\n`);
        socket.write(Buffer.alloc(10));
      });
      socket.on("close", () => resolve());
      socket.on("error", reject);
      socket.resume();
    });
    expect(await signIn(cloud.url, cloud.init.api_key.id, cloud.init.api_key.key, "grpc-web")).toMatch(/^ey/);
  }, 60_000);

  it("is let go over HTTP/2, and so is a connection that opens no stream", async () => {
    const session = http2.connect(cloud.url);
    session.on("error", () => undefined);
    const stream = session.request({ ":method": "POST", ":path": AUTHENTICATE, "content-type": "application/grpc" }, { endStream: false });
    stream.on("error", () => undefined);
    stream.resume();
    stream.write(Buffer.alloc(3));
    await new Promise<void>((resolve) => stream.once("close", () => resolve()));
    const idle = http2.connect(cloud.url);
    idle.on("error", () => undefined);
    await new Promise<void>((resolve) => idle.once("close", () => resolve()));
    session.destroy();
    expect(await signIn(cloud.url, cloud.init.api_key.id, cloud.init.api_key.key)).toMatch(/^ey/);
  }, 60_000);

  it("does not keep svc-cloud from stopping: a refused HTTP/1.1 request whose body never came", async () => {
    const own = await startCloud();
    const port = Number(new URL(own.url).port);
    const status = await new Promise<number | undefined>((resolve) => {
      const req = request(
        { host: "localhost", port, method: "POST", path: AUTHENTICATE, headers: { "content-type": "application/grpc-web+proto", "content-length": 100_000 } },
        (res) => {
          res.resume();
          resolve(res.statusCode);
        },
      );
      req.on("error", () => resolve(undefined));
      // The rest of the body never comes; the connection stays open.
      req.write(Buffer.alloc(1000));
    });
    expect(status).toBe(200);
    expect(await own.stop()).toBe(0);
  }, 60_000);
});

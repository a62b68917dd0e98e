// Request targets no URL parser takes, against the real svc-cloud: an absolute form with a port
// past 65535 or a broken host, to a plain route and to an RPC's path, over HTTP/1.1. Each is
// answered 400 and svc-cloud keeps serving.
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn } from "../helpers/cloud-client.js";
import { startCloud, type CloudProcess } from "../helpers/cloud-process.js";

let cloud: CloudProcess;
beforeAll(async () => {
  cloud = await startCloud();
});
afterAll(() => cloud?.stop());

/** The status line answering one raw request, or "" when the connection closed without one. */
function statusLine(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(cloud.url).port), "localhost", () => socket.write(request));
    let got = "";
    socket.on("data", (chunk) => (got += chunk));
    socket.on("close", () => resolve(got.split("\r\n")[0] ?? ""));
    socket.on("error", reject);
  });
}

describe("a request target that is no URL", () => {
  it("is answered 400, and svc-cloud keeps serving", async () => {
    const targets = ["GET http://a:99999/ca.pem", "GET http://[::1/releases/x", "POST http://a:99999/proto.rpc.v1.AuthService/Authenticate"];
    for (const target of targets) {
      const line = await statusLine(`${target} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/grpc-web+proto\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
      expect(line, target).toMatch(/^HTTP\/1\.1 400 /);
    }
    expect(cloud.child.exitCode).toBeNull();
    expect(await signIn(cloud.url, cloud.init.api_key.id, cloud.init.api_key.key, "grpc-web")).toMatch(/^ey/);
  });
});

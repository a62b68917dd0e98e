// A remote that stops taking the token it gave (it expired, the remote's keys were rotated):
// svc-server signs in again with its API key and carries on, the remote never counted as
// unavailable. The remote here is a small gRPC server in the test, as strict about tokens as a
// real part: Authenticate hands out a new token, ResourceNames takes only the newest.
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import http2 from "node:http2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuthenticateRequestSchema, AuthenticateResponseSchema } from "../../proto/gen/proto/rpc/v1/auth_pb.js";
import { ResourceNamesResponseSchema } from "../../proto/gen/robot/v1/robot_pb.js";
import { eventually } from "../helpers/eventually.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";
import { when } from "./parts.js";

const key = "the-api-key-of-the-strict-remote";
let valid = "";
let issued = 0;
let refusals = 0;
let server: http2.Http2Server;
let main: SvcServerProcess;

function answer(stream: http2.ServerHttp2Stream, status: number, message?: Uint8Array): void {
  stream.respond({ ":status": 200, "content-type": "application/grpc" }, { waitForTrailers: true });
  stream.on("wantTrailers", () => stream.sendTrailers({ "grpc-status": String(status), "grpc-message": status === 0 ? "" : "token refused" }));
  if (message === undefined) return void stream.end();
  const frame = Buffer.alloc(5 + message.length);
  frame.writeUInt32BE(message.length, 1);
  frame.set(message, 5);
  stream.end(frame);
}

beforeAll(async () => {
  server = http2.createServer();
  server.on("stream", (stream, headers) => {
    const chunks: Buffer[] = [];
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("error", () => {});
    stream.on("end", () => {
      const body = Buffer.concat(chunks).subarray(5);
      if (headers[":path"] === "/proto.rpc.v1.AuthService/Authenticate") {
        const request = fromBinary(AuthenticateRequestSchema, body);
        if (request.credentials?.payload !== key) return answer(stream, 16);
        valid = `token-${++issued}`;
        return answer(stream, 0, toBinary(AuthenticateResponseSchema, create(AuthenticateResponseSchema, { accessToken: valid })));
      }
      if (headers.authorization !== `Bearer ${valid}`) {
        refusals++;
        return answer(stream, 16);
      }
      // It says nothing of which services serve its APIs, as an older viam-server would not.
      if (headers[":path"] !== "/viam.robot.v1.RobotService/ResourceNames") return answer(stream, 12);
      const listing = create(ResourceNamesResponseSchema, { resources: [{ namespace: "rdk", type: "component", subtype: "sensor", name: "s" }] });
      answer(stream, 0, toBinary(ResourceNamesResponseSchema, listing));
    });
  });
  const port = await new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port)));
  main = await startSvcServer({
    remotes: [
      {
        name: "strict",
        address: `127.0.0.1:${port}`,
        insecure: true,
        auth: { entity: "main", credentials: { type: "api-key", payload: key } },
        connection_check_interval: "200ms",
      },
    ],
  });
  await eventually(() => when(main.url, "rdk:remote:/strict", "READY"), "the strict remote joined");
}, 60_000);

afterAll(async () => {
  await main?.stop();
  await new Promise((resolve) => server?.close(resolve));
});

describe("a token the remote stops taking", () => {
  it("is replaced by signing in again, the remote never unavailable", async () => {
    expect(issued).toBe(1);
    valid = "expired";
    await eventually(() => (issued === 2 && refusals === 1 ? true : undefined), "a second sign-in after the refusal");
    await eventually(() => when(main.url, "rdk:component:sensor/strict:s", "READY"), "the remote's sensor still there");
    expect((await eventually(() => when(main.url, "rdk:remote:/strict", "READY"), "the remote READY")).error).toBe("");
    expect(main.stdout()).not.toContain("is unavailable");
    expect(main.stdout()).not.toContain(key);
  });
});

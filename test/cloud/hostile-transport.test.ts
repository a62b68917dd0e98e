// What an attacker or a careless client sends to svc-cloud's port: calls without a token or with
// a bad one on every method of every service, oversize and malformed messages, hostile gRPC
// framing, connections that dribble or say nothing, unknown paths and methods, and many callers at
// once. Each gets a clear refusal and the service keeps serving.
import { connect } from "node:net";
import http2 from "node:http2";
import { Code, ConnectError, createClient, type Client } from "@connectrpc/connect";
import type { DescMethod, DescService } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentDeviceService } from "../../proto/gen/app/agent/v1/agent_pb.js";
import { DataSyncService } from "../../proto/gen/app/datasync/v1/data_sync_pb.js";
import { AppService } from "../../proto/gen/app/v1/app_pb.js";
import { RobotService } from "../../proto/gen/app/v1/robot_pb.js";
import { AuthService } from "../../proto/gen/proto/rpc/v1/auth_pb.js";
import { CloudService } from "../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { eventually } from "../helpers/eventually.js";
import { bearer, cloudTransport, signIn, type Wire } from "../helpers/cloud-client.js";
import { startCloud, type CloudProcess } from "../helpers/cloud-process.js";

let cloud: CloudProcess;
beforeAll(async () => {
  cloud = await startCloud();
});
afterAll(() => cloud?.stop());

/** Methods anyone may call: signing in, and accepting an invitation (its token is the credential). */
const PUBLIC = new Set(["proto.rpc.v1.AuthService/Authenticate", "svc.cloud.v1.CloudService/AcceptInvitation"]);
const SERVICES: DescService[] = [AppService, CloudService, RobotService, AgentDeviceService, DataSyncService, AuthService];

async function codeOfCall(client: Client<DescService>, method: DescMethod): Promise<Code | undefined> {
  const call = (client as unknown as Record<string, (input: unknown) => unknown>)[method.localName]!;
  try {
    if (method.methodKind === "unary") await call({});
    else if (method.methodKind === "server_streaming") for await (const _ of call({}) as AsyncIterable<unknown>) break;
    else if (method.methodKind === "client_streaming") await call((async function* () {})());
    else for await (const _ of call((async function* () {})()) as AsyncIterable<unknown>) break;
    return undefined;
  } catch (thrown) {
    return ConnectError.from(thrown).code;
  }
}

describe("every call but signing in", () => {
  const methods = SERVICES.flatMap((service) => service.methods.map((method) => ({ service, method })));
  const guarded = methods.filter(({ service, method }) => !PUBLIC.has(`${service.typeName}/${method.name}`));

  it.each([["grpc"], ["grpc-web"]] as const)("is refused over %s without a token, with a malformed one and with a forged one", async (wire: Wire) => {
    const forged = (await signIn(cloud.url, cloud.init.api_key.id, cloud.init.api_key.key)).replace(/.{8}$/, "AAAAAAAA");
    const refusedWith: Record<string, Array<Code | undefined>> = {};
    for (const token of [undefined, "garbage", forged]) {
      for (const { service, method } of guarded) {
        const client = createClient(service, cloudTransport(cloud.url, wire, token === undefined ? [] : [bearer(token)]));
        (refusedWith[`${service.typeName}/${method.name}`] ??= []).push(await codeOfCall(client, method));
      }
    }
    const notRefused = Object.entries(refusedWith).filter(([, codes]) => codes.some((c) => c !== Code.Unauthenticated));
    expect(notRefused).toEqual([]);
  });
});

describe("hostile messages", () => {
  it("refuses a message past 4 MiB, and a sign-in past 64 KiB (anyone may send one), and keeps serving", async () => {
    const auth = createClient(AuthService, cloudTransport(cloud.url));
    await expect(auth.authenticate({ entity: "x".repeat(5 * 1024 * 1024), credentials: { type: "api-key", payload: "y" } })).rejects.toThrow(/resource_exhausted/);
    for (const wire of ["grpc", "grpc-web"] as const) {
      const signInOver = createClient(AuthService, cloudTransport(cloud.url, wire));
      await expect(signInOver.authenticate({ entity: "x".repeat(65 * 1024), credentials: { type: "api-key", payload: "y" } })).rejects.toThrow(
        /resource_exhausted.*limit for calls made without credentials/,
      );
    }
    const robot = createClient(RobotService, cloudTransport(cloud.url));
    await expect(robot.config({ id: "x".repeat(5 * 1024 * 1024) })).rejects.toThrow(/resource_exhausted.*4194304-byte message limit$/);
    expect(await signIn(cloud.url, cloud.init.api_key.id, cloud.init.api_key.key)).toMatch(/^ey/);
  });

  it("refuses malformed protobuf, a lying length prefix and a compressed flag without an encoding", async () => {
    const session = http2.connect(cloud.url);
    try {
      const call = (body: Buffer) =>
        new Promise<{ status: string | undefined; message: string | undefined }>((resolve, reject) => {
          const stream = session.request({ ":method": "POST", ":path": "/proto.rpc.v1.AuthService/Authenticate", "content-type": "application/grpc", te: "trailers" });
          let headers: http2.IncomingHttpHeaders = {};
          stream.on("response", (h) => (headers = h));
          stream.on("trailers", (t) => resolve({ status: String(t["grpc-status"]), message: String(t["grpc-message"]) }));
          stream.on("end", () => resolve({ status: headers["grpc-status"] as string | undefined, message: headers["grpc-message"] as string | undefined }));
          stream.on("error", reject);
          stream.resume();
          stream.end(body);
        });
      const frame = (flag: number, length: number, payload: Buffer) => Buffer.concat([Buffer.from([flag, length >>> 24, (length >>> 16) & 255, (length >>> 8) & 255, length & 255]), payload]);
      const garbage = Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x01]);
      const results = [await call(frame(0, garbage.length, garbage)), await call(frame(0, 100, Buffer.from("short"))), await call(frame(1, 3, Buffer.from("abc")))];
      for (const result of results) {
        expect(result.status).not.toBe("0");
        expect(result.status).not.toBe(String(Code.Unknown));
        expect(result.message).toBeTruthy();
      }
    } finally {
      session.close();
    }
    expect(await signIn(cloud.url, cloud.init.api_key.id, cloud.init.api_key.key)).toMatch(/^ey/);
  });

  it("answers an unknown path with a 404 and an unknown method with UNIMPLEMENTED", async () => {
    const response = await fetch(`${cloud.url}/etc/passwd`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "no route for GET /etc/passwd" });
    const token = await signIn(cloud.url, cloud.init.api_key.id, cloud.init.api_key.key);
    const unknown = await fetch(`${cloud.url}/viam.app.v1.AppService/NoSuchCall`, {
      method: "POST",
      headers: { "content-type": "application/grpc-web+proto", authorization: `Bearer ${token}` },
      body: new Uint8Array(5),
    });
    // A path no service serves is a 404 (which gRPC clients read as UNIMPLEMENTED).
    expect(unknown.status).toBe(404);
  });
});

describe("hostile connections", () => {
  it("closes a connection that says nothing, and one that dribbles its headers", async () => {
    const port = Number(new URL(cloud.url).port);
    const closedByServer = (send: (socket: ReturnType<typeof connect>) => void) =>
      new Promise<void>((resolve, reject) => {
        const socket = connect(port, "localhost", () => send(socket));
        socket.on("close", () => resolve());
        socket.on("error", reject);
        socket.resume();
      });
    await closedByServer(() => {});
    let dribble: NodeJS.Timeout | undefined;
    await closedByServer((socket) => {
      socket.write("GET / HTTP/1.1\r\nHost: localhost\r\n");
      dribble = setInterval(() => socket.writable && socket.write("X-Slow: a\r\n"), 500);
    });
    clearInterval(dribble);
    expect(await signIn(cloud.url, cloud.init.api_key.id, cloud.init.api_key.key)).toMatch(/^ey/);
  }, 60_000);

  it("serves two hundred sign-ins at once over HTTP/2 and HTTP/1.1", async () => {
    const tokens = await Promise.all(Array.from({ length: 200 }, (_, i) => signIn(cloud.url, cloud.init.api_key.id, cloud.init.api_key.key, i % 2 === 0 ? "grpc" : "grpc-web")));
    expect(new Set(tokens.map((t) => t.split(".")[0])).size).toBe(1);
    await eventually(() => (cloud.child.exitCode === null ? true : undefined), "svc-cloud still running");
  });
});

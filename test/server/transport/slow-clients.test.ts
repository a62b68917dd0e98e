// Slow and idle clients cannot hold the port: an API port with short timeouts and small caps
// (8 connections per address, 24 in all) against clients from other loopback addresses
// (127.0.0.2 and up are other machines, as far as the server can tell). Connections over a cap are
// closed at once, slow headers are cut at the headers timeout (408), an HTTP/2 client that never
// sends its SETTINGS and an HTTP/2 connection left idle are closed, and through it all a normal
// client (the official SDK, @grpc/grpc-js) from 127.0.0.1 is answered.
import { create } from "@bufbuild/protobuf";
import * as VIAM from "@viamrobotics/sdk";
import http2 from "node:http2";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GetReadingsRequestSchema } from "../../../proto/gen/common/v1/common_pb.js";
import { createApiServer, type ApiServer } from "../../../targets/linux/server/transport/index.js";
import { eventually } from "../../helpers/eventually.js";
import { getReadingsPath, grpcJsCaller, sensorRoutes, tempReadings } from "./sensor-fixture.js";

let server: ApiServer;
const open = new Set<net.Socket | http2.ClientHttp2Session>();
beforeAll(async () => {
  server = await createApiServer({
    bindAddress: "127.0.0.1:0",
    routes(router) {
      sensorRoutes(router);
    },
    limits: {
      headersTimeoutMs: 1_000,
      firstBytesTimeoutMs: 1_000,
      settingsTimeoutMs: 1_000,
      sessionIdleTimeoutMs: 1_000,
      maxConnectionsPerAddress: 8,
      maxConnections: 24,
    },
  });
});
afterAll(async () => {
  for (const s of open) s.destroy();
  await server?.close();
});

interface SlowSocket {
  text(): string;
  closed(): boolean;
}

/** An HTTP/1.1 request whose headers come one byte every 200 ms, and never end. */
function slowHeaders(localAddress: string): SlowSocket {
  const socket = net.connect({ port: server.port, host: "127.0.0.1", localAddress });
  open.add(socket);
  let text = "";
  let closed = false;
  socket.on("data", (d) => (text += d.toString("latin1")));
  socket.on("error", () => {});
  socket.on("close", () => {
    closed = true;
    clearInterval(drip);
  });
  socket.write("GET /restart_status HTTP/1.1\r\nHost: 127.0.0.1\r\n");
  const drip = setInterval(() => socket.write("x"), 200);
  return { text: () => text, closed: () => closed };
}

async function sdkReads(): Promise<void> {
  const robot = new VIAM.RobotClient();
  await robot.dial({ host: `http://localhost:${server.port}`, noReconnect: true });
  try {
    expect(await new VIAM.SensorClient(robot, "temp").getReadings()).toEqual(tempReadings);
  } finally {
    await robot.disconnect();
  }
}

describe("slow HTTP/1.1 clients", () => {
  it("from many addresses fill the total cap (24) and no more, and are cut at the headers timeout", async () => {
    const slow = ["127.0.0.3", "127.0.0.4", "127.0.0.5", "127.0.0.6"].flatMap((address) =>
      Array.from({ length: 8 }, () => slowHeaders(address)),
    );
    // First in this file, so nothing else holds a connection.
    await eventually(() => (slow.every((s) => s.closed()) ? true : undefined), "every slow connection to be closed");
    expect(slow.filter((s) => s.text().startsWith("HTTP/1.1 408")).length).toBe(24);
    await sdkReads();
  });

  it("from one address get 8 connections, cut at the headers timeout; the SDK is answered meanwhile", async () => {
    const slow = Array.from({ length: 30 }, () => slowHeaders("127.0.0.2"));
    await sdkReads();
    await eventually(() => (slow.every((s) => s.closed()) ? true : undefined), "every slow connection to be closed");
    // Those over the cap were closed before a byte was read; the rest heard 408.
    expect(slow.filter((s) => s.text().startsWith("HTTP/1.1 408")).length).toBe(8);
  });
});

describe("HTTP/2 clients", () => {
  it("from one address get 8 connections; idle ones are closed with GOAWAY; grpc-js is answered meanwhile", async () => {
    const sessions = Array.from({ length: 12 }, () => {
      // Node hands localAddress on to the socket it opens; the http2 types do not list it.
      const session = http2.connect(`http://127.0.0.1:${server.port}`, { localAddress: "127.0.0.7" } as http2.ClientSessionOptions);
      open.add(session);
      const seen = { settings: false, goaway: false, closed: false };
      session.on("error", () => {});
      session.on("remoteSettings", () => (seen.settings = true));
      session.on("goaway", () => (seen.goaway = true));
      session.on("close", () => (seen.closed = true));
      return seen;
    });
    const grpcJs = grpcJsCaller(`127.0.0.1:${server.port}`);
    try {
      const answer = await grpcJs.call(getReadingsPath, create(GetReadingsRequestSchema, { name: "temp" }));
      expect(Object.keys(answer.readings)).toEqual(Object.keys(tempReadings));
    } finally {
      grpcJs.close();
    }
    await eventually(() => (sessions.every((s) => s.closed) ? true : undefined), "every session to be closed");
    expect(sessions.filter((s) => s.settings).length).toBe(8);
    expect(sessions.filter((s) => s.goaway).length).toBe(8);
  });

  it("a client that sends the preface and never its SETTINGS is dropped", async () => {
    const socket = net.connect({ port: server.port, host: "127.0.0.1", localAddress: "127.0.0.8" });
    open.add(socket);
    let closed = false;
    socket.on("data", () => {});
    socket.on("error", () => {});
    socket.on("close", () => (closed = true));
    socket.write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
    await eventually(() => closed || undefined, "the silent HTTP/2 client to be dropped");
  });

  it("a connection that drips the preface a byte at a time is dropped before it decides", async () => {
    const socket = net.connect({ port: server.port, host: "127.0.0.1", localAddress: "127.0.0.9" });
    open.add(socket);
    let closed = false;
    const preface = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
    let i = 0;
    const drip = setInterval(() => (i < preface.length ? socket.write(preface.subarray(i, ++i)) : undefined), 400);
    socket.on("error", () => {});
    socket.on("close", () => {
      closed = true;
      clearInterval(drip);
    });
    await eventually(() => closed || undefined, "the dripping client to be dropped");
    expect(i).toBeLessThan(preface.length);
  });
});

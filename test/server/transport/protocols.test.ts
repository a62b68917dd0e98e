// One port, every client: the official SDK over gRPC-web and over HTTP/2 (through its transport
// factory hook), connect-node over gRPC and gRPC-web, @grpc/grpc-js over HTTP/2, and plain fetch for
// Connect. Each reads the sensor, gets NOT_FOUND with its message, and gets UNIMPLEMENTED (12)
// for what is not served.
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import * as VIAM from "@viamrobotics/sdk";
import http2 from "node:http2";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GetReadingsRequestSchema } from "../../../proto/gen/common/v1/common_pb.js";
import { MotorService } from "../../../proto/gen/component/motor/v1/motor_pb.js";
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
import { createSdkGrpcTransports } from "../../helpers/sdk-grpc-transport.js";

let server: ApiServer;
const seen: Array<{ method: string; peer: Peer; protocol: string }> = [];

beforeAll(async () => {
  server = await createApiServer({
    bindAddress: "127.0.0.1:0",
    routes: sensorRoutes,
    interceptors: [
      (next) => async (req) => {
        const peer = req.contextValues.get(peerKey);
        seen.push({ method: req.method.name, peer, protocol: req.header.get("content-type") ?? "" });
        const res = await next(req);
        res.header.set("x-svc-intercepted", req.method.name);
        return res;
      },
    ],
  });
});
afterAll(() => server.close());

const request = (name: string) => create(GetReadingsRequestSchema, { name });

describe("the official SDK", () => {
  it("reads a sensor over gRPC-web, gets NOT_FOUND and UNIMPLEMENTED with their messages", async () => {
    const robot = new VIAM.RobotClient();
    await robot.dial({ host: `http://localhost:${server.port}`, noReconnect: true });
    try {
      expect(await new VIAM.SensorClient(robot, "temp").getReadings()).toEqual(tempReadings);
      const missing = await new VIAM.SensorClient(robot, "nope").getReadings().catch((e: unknown) => e);
      expect(missing).toMatchObject({ code: Code.NotFound, rawMessage: 'resource "rdk:component:sensor/nope" not found' });
      const unserved = await new VIAM.MotorClient(robot, "left").isMoving().catch((e: unknown) => e);
      expect(unserved).toMatchObject({ code: Code.Unimplemented });
    } finally {
      await robot.disconnect();
    }
  });

  it("reads a sensor over native gRPC (HTTP/2) through its GRPC_TRANSPORT_FACTORY hook", async () => {
    const transports = createSdkGrpcTransports();
    const before = globalThis.VIAM;
    globalThis.VIAM = { GRPC_TRANSPORT_FACTORY: transports.factory };
    seen.length = 0;
    const robot = new VIAM.RobotClient();
    try {
      await robot.dial({ host: `http://localhost:${server.port}`, noReconnect: true });
      expect(await new VIAM.SensorClient(robot, "temp").getReadings()).toEqual(tempReadings);
      const missing = await new VIAM.SensorClient(robot, "nope").getReadings().catch((e: unknown) => e);
      expect(missing).toMatchObject({ code: Code.NotFound, rawMessage: 'resource "rdk:component:sensor/nope" not found' });
      const unserved = await new VIAM.MotorClient(robot, "left").isMoving().catch((e: unknown) => e);
      expect(unserved).toMatchObject({ code: Code.Unimplemented });
      expect(seen.filter((s) => s.method === "GetReadings").map((s) => s.protocol)).toEqual([
        "application/grpc+proto",
        "application/grpc+proto",
      ]);
    } finally {
      await robot.disconnect();
      transports.close();
      globalThis.VIAM = before;
    }
  });
});

describe("connect-node clients", () => {
  for (const [protocol, transportFor] of [
    ["gRPC over HTTP/2", grpcTransport],
    ["gRPC-web over HTTP/1.1", grpcWebTransport],
  ] as const) {
    it(`${protocol}: readings, NOT_FOUND, INVALID_ARGUMENT and UNAVAILABLE with messages, unknown method is 12`, async () => {
      const transport = transportFor(server.url);
      const sensor = sensorClient(transport);
      const response = await sensor.getReadings({ name: "temp" });
      expect(readingsJson(response)).toEqual(tempReadings);
      for (const [name, code, message] of [
        ["nope", Code.NotFound, 'resource "rdk:component:sensor/nope" not found'],
        ["", Code.InvalidArgument, "name: must not be empty"],
        ["cold", Code.Unavailable, "température: capteur pas prêt (warming up)"],
      ] as const) {
        const error = await sensor.getReadings({ name }).catch((e: unknown) => ConnectError.from(e));
        expect(error).toMatchObject({ code, rawMessage: message });
      }
      const motor = createClient(MotorService, transport);
      const unknownService = await motor.isMoving({ name: "left" }).catch((e: unknown) => ConnectError.from(e));
      expect(unknownService).toMatchObject({ code: Code.Unimplemented, rawMessage: "unknown service viam.component.motor.v1.MotorService" });
    });
  }

  it("interceptors see every call with its peer, and can set response headers", async () => {
    seen.length = 0;
    let header: Headers | undefined;
    await sensorClient(grpcWebTransport(server.url)).getReadings({ name: "temp" }, { onHeader: (h) => (header = h) });
    await sensorClient(grpcTransport(server.url)).getReadings({ name: "temp" });
    expect(header?.get("x-svc-intercepted")).toBe("GetReadings");
    expect(seen.map((s) => [s.method, s.peer.address, s.peer.secure, s.protocol.split("+")[0]])).toEqual([
      ["GetReadings", "127.0.0.1", false, "application/grpc-web"],
      ["GetReadings", "127.0.0.1", false, "application/grpc"],
    ]);
  });
});

describe("@grpc/grpc-js over HTTP/2", () => {
  it("reads a sensor; errors keep their code and their message unmangled; unknown methods are 12", async () => {
    const client = grpcJsCaller(`127.0.0.1:${server.port}`);
    try {
      expect(readingsJson(await client.call(getReadingsPath, request("temp")))).toEqual(tempReadings);
      await expect(client.call(getReadingsPath, request("nope"))).rejects.toMatchObject({
        code: Code.NotFound,
        details: 'resource "rdk:component:sensor/nope" not found',
      });
      await expect(client.call(getReadingsPath, request("cold"))).rejects.toMatchObject({
        code: Code.Unavailable,
        details: "température: capteur pas prêt (warming up)",
      });
      await expect(client.call("/viam.component.sensor.v1.SensorService/Calibrate", request("temp"))).rejects.toMatchObject({
        code: Code.Unimplemented,
        details: "unknown method Calibrate for service viam.component.sensor.v1.SensorService",
      });
      await expect(client.call("/viam.service.vision.v1.VisionService/GetDetections", request("x"))).rejects.toMatchObject({
        code: Code.Unimplemented,
        details: "unknown service viam.service.vision.v1.VisionService",
      });
    } finally {
      client.close();
    }
  });
});

describe("the wire answers", () => {
  it("gRPC: an unknown method is HTTP 200 with grpc-status 12 in the trailers", async () => {
    const session = http2.connect(server.url);
    try {
      const { status, trailers } = await new Promise<{ status: number; trailers: http2.IncomingHttpHeaders }>((resolve, reject) => {
        const stream = session.request({ ":method": "POST", ":path": "/a.b.C/D", "content-type": "application/grpc", te: "trailers" });
        let status = 0;
        stream.on("response", (headers) => (status = Number(headers[":status"])));
        stream.on("trailers", (trailers) => resolve({ status, trailers }));
        stream.on("error", reject);
        stream.resume();
        stream.end(Buffer.from([0, 0, 0, 0, 0]));
      });
      expect(status).toBe(200);
      expect(trailers["grpc-status"]).toBe("12");
      expect(trailers["grpc-message"]).toBe("unknown service a.b.C");
    } finally {
      session.close();
    }
  });

  it("gRPC-web: an unknown method is HTTP 200 with grpc-status 12", async () => {
    const response = await fetch(`${server.url}/a.b.C/D`, {
      method: "POST",
      headers: { "content-type": "application/grpc-web+proto", "x-grpc-web": "1" },
      body: new Uint8Array([0, 0, 0, 0, 0]),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("grpc-status")).toBe("12");
  });

  it("Connect: a unary call works with JSON, and an unknown method is 404 with code unimplemented", async () => {
    const ok = await fetch(`${server.url}${getReadingsPath}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "temp" }),
    });
    expect(await ok.json()).toEqual({ readings: tempReadings });
    const unknown = await fetch(`${server.url}/a.b.C/D`, {
      method: "POST",
      headers: { "content-type": "application/json", "connect-protocol-version": "1" },
      body: "{}",
    });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ code: "unimplemented", message: "unknown service a.b.C" });
  });

  it("any other unknown path is a plain 404, over HTTP/1.1 and HTTP/2", async () => {
    for (const method of ["GET", "POST"]) {
      const response = await fetch(`${server.url}/nope`, { method });
      expect(response.status).toBe(404);
      expect(response.headers.get("grpc-status")).toBeNull();
    }
    const session = http2.connect(server.url);
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const stream = session.request({ ":path": "/nope" });
        stream.on("response", (headers) => resolve(Number(headers[":status"])));
        stream.on("error", reject);
        stream.resume();
      });
      expect(status).toBe(404);
    } finally {
      session.close();
    }
  });

  it("a client that sends its first bytes one at a time is still understood", async () => {
    for (const [bytes, expected] of [
      ["GET /nope HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n", /^HTTP\/1\.1 404/],
      ["PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00\x00\x04\x00\x00\x00\x00\x00", /^\x00\x00.\x04/s],
    ] as const) {
      const socket = net.connect(server.port, "127.0.0.1");
      const answer = new Promise<string>((resolve) => socket.once("data", (d) => resolve(d.toString("latin1"))));
      for (const byte of Buffer.from(bytes, "latin1")) {
        socket.write(Buffer.from([byte]));
        await new Promise((r) => setImmediate(r));
      }
      expect(await answer).toMatch(expected);
      socket.destroy();
    }
  });
});

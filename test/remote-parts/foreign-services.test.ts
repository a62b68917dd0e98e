// A remote part serving APIs svc-server has no service for (a viam-server's arm, a modular API):
// the main part (a real svc-server process) passes their calls on as bytes to the part whose
// resource the request names. The remote here is a stand-in for viam-server written with
// connect-node: ResourceNames lists an arm and a gizmo of a modular API, ResourceRPCSubtypes says
// which service serves each, and the two services answer. The official SDK's ArmClient drives the
// arm through the main part; the gizmo is called with a client made from its own description.
import { create, createFileRegistry, fromBinary, toBinary, type DescMessage, type DescService } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, createClient, type ConnectRouter } from "@connectrpc/connect";
import { connectNodeAdapter, createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import * as VIAM from "@viamrobotics/sdk";
import { RTCIceCandidate, RTCPeerConnection, RTCSessionDescription } from "node-datachannel/polyfill";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ArmService } from "../../proto/gen/component/arm/v1/arm_pb.js";
import { RobotService } from "../../proto/gen/robot/v1/robot_pb.js";
import { eventually } from "../helpers/eventually.js";
import { dialSdk } from "../helpers/sdk-robot.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";

// A modular API's service, as a module's author would write it in a .proto file.
const gizmoFile = createFileRegistry(
  create(FileDescriptorProtoSchema, {
    name: "acme/gizmo/v1/gizmo.proto",
    package: "acme.gizmo.v1",
    syntax: "proto3",
    messageType: [
      { name: "SpinRequest", field: [{ name: "name", number: 1, type: 9, label: 1, jsonName: "name" }, { name: "turns", number: 2, type: 5, label: 1, jsonName: "turns" }] },
      { name: "SpinResponse", field: [{ name: "done", number: 1, type: 5, label: 1, jsonName: "done" }, { name: "by", number: 2, type: 9, label: 1, jsonName: "by" }] },
    ],
    service: [{ name: "GizmoService", method: [{ name: "Spin", inputType: ".acme.gizmo.v1.SpinRequest", outputType: ".acme.gizmo.v1.SpinResponse" }] }],
  }),
  () => undefined,
);
const Gizmo: DescService = gizmoFile.getService("acme.gizmo.v1.GizmoService")!;
const SpinRequest: DescMessage = gizmoFile.getMessage("acme.gizmo.v1.SpinRequest")!;
const SpinResponse: DescMessage = gizmoFile.getMessage("acme.gizmo.v1.SpinResponse")!;

const armApi = { namespace: "rdk", type: "component", subtype: "arm" };
const gizmoApi = { namespace: "acme", type: "component", subtype: "gizmo" };

/** What the stand-in viam-server was asked, by method. */
const asked: { method: string; name: string }[] = [];

function viamServerRoutes(router: ConnectRouter): void {
  router.service(RobotService, {
    resourceNames: () => ({ resources: [{ ...armApi, name: "arm1" }, { ...gizmoApi, name: "g1" }] }),
    resourceRPCSubtypes: () => ({
      resourceRpcSubtypes: [
        { subtype: { ...armApi, name: "" }, protoService: ArmService.typeName },
        { subtype: { ...gizmoApi, name: "" }, protoService: Gizmo.typeName },
        // An API it does not list, and a name no service has: neither is taken.
        { subtype: { namespace: "rdk", type: "component", subtype: "gantry", name: "" }, protoService: "viam.component.gantry.v1.GantryService" },
        { subtype: { namespace: "acme", type: "component", subtype: "gizmo", name: "" }, protoService: "not a service/../x" },
      ],
    }),
  });
  router.service(ArmService, {
    getEndPosition(request) {
      asked.push({ method: "GetEndPosition", name: request.name });
      if (request.name !== "arm1") throw new ConnectError(`no arm ${request.name}`, Code.NotFound);
      return { pose: { x: 100, y: 200, z: 300, oZ: 1 } };
    },
    moveToPosition(request) {
      asked.push({ method: "MoveToPosition", name: request.name });
      return {};
    },
  });
  router.service(Gizmo, {
    spin(request: { name: string; turns: number }) {
      asked.push({ method: "Spin", name: request.name });
      return create(SpinResponse, { done: request.turns * 2, by: request.name });
    },
  } as never);
}

let remote: http2.Http2Server;
const remoteSessions = new Set<http2.ServerHttp2Session>();

/** The stand-in viam-server on `port` (any when 0). */
async function listenRemote(port: number): Promise<http2.Http2Server> {
  const server = http2.createServer(connectNodeAdapter({ routes: viamServerRoutes }));
  server.on("session", (session) => {
    remoteSessions.add(session);
    session.once("close", () => remoteSessions.delete(session));
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return server;
}

let main: SvcServerProcess;
let robot: VIAM.RobotClient;

beforeAll(async () => {
  remote = await listenRemote(0);
  const port = (remote.address() as AddressInfo).port;
  main = await startSvcServer({ remotes: [{ name: "pi", address: `127.0.0.1:${port}`, insecure: true, connection_check_interval: "1s", reconnect_interval: "100ms" }] });
  robot = await dialSdk(main.sdkHost);
  await eventually(async () => ((await robot.resourceNames()).some((n) => n.name === "arm1") ? true : undefined), "the remote's arm listed");
});

afterAll(async () => {
  await robot?.disconnect();
  await main?.stop();
  await new Promise<void>((resolve) => {
    remote.close(() => resolve());
    for (const session of remoteSessions) session.destroy();
  });
});

const grpc = () => createGrpcTransport({ baseUrl: main.url });

describe("APIs svc-server does not serve, on a remote part", () => {
  it("drives a remote viam-server's arm with the official SDK, by its full and its short name", async () => {
    const arm = new VIAM.ArmClient(robot, "pi:arm1");
    const pose = await arm.getEndPosition();
    expect([pose.x, pose.y, pose.z]).toEqual([100, 200, 300]);
    await arm.moveToPosition(pose);
    expect(await new VIAM.ArmClient(robot, "arm1").getEndPosition()).toMatchObject({ x: 100 });
    // The remote hears its own name for the arm.
    expect(asked.filter((a) => a.method !== "Spin").every((a) => a.name === "arm1")).toBe(true);
  });

  it("passes a modular API's call on as bytes and its answer back as the remote wrote it", async () => {
    const gizmo = createClient(Gizmo, grpc()) as unknown as { spin(request: object): Promise<{ done: number; by: string }> };
    const answer = await gizmo.spin(create(SpinRequest, { name: "pi:g1", turns: 21 }));
    expect(answer).toMatchObject({ done: 42, by: "g1" });
    // Bytes the main part has no description of come back untouched.
    const raw = await rawCall(`/${Gizmo.typeName}/Spin`, toBinary(SpinRequest, create(SpinRequest, { name: "g1", turns: 1 })));
    expect(fromBinary(SpinResponse, raw)).toMatchObject({ done: 2, by: "g1" });
  });

  it("drives the arm over WebRTC too, the machine its own signaling server", async () => {
    // The browser's WebRTC, as node-datachannel gives it to Node.
    Object.assign(globalThis, { RTCPeerConnection, RTCSessionDescription, RTCIceCandidate });
    const overWebRtc = new VIAM.RobotClient();
    try {
      await overWebRtc.dial({ host: new URL(main.url).host, signalingAddress: main.url, noReconnect: true, iceServers: [] } as never);
      expect(await new VIAM.ArmClient(overWebRtc, "pi:arm1").getEndPosition()).toMatchObject({ x: 100, y: 200 });
    } finally {
      await overWebRtc.disconnect();
    }
  });

  it("says which service serves each of the remote's APIs in its own ResourceRPCSubtypes", async () => {
    const { resourceRpcSubtypes } = await createClient(RobotService, grpc()).resourceRPCSubtypes({});
    const services = Object.fromEntries(resourceRpcSubtypes.map((s) => [`${s.subtype!.namespace}:${s.subtype!.type}:${s.subtype!.subtype}`, s.protoService]));
    expect(services).toMatchObject({ "rdk:component:arm": ArmService.typeName, "acme:component:gizmo": Gizmo.typeName });
    expect(services["rdk:component:gantry"]).toBeUndefined();
  });
});

describe("the hostile half of passing calls on", () => {
  const spin = (bytes: Uint8Array) => rawCall(`/${Gizmo.typeName}/Spin`, bytes);

  it("refuses a request that names no resource, or one that is not there, saying so", async () => {
    await expect(spin(toBinary(SpinRequest, create(SpinRequest, { turns: 3 })))).rejects.toMatchObject({ code: Code.InvalidArgument });
    // Bytes that are no message at all, as grpc-go answers them.
    await expect(spin(new Uint8Array([0x0a, 0x7f, 0x41]))).rejects.toMatchObject({ code: Code.Internal, message: expect.stringMatching(/premature/) });
    await expect(spin(toBinary(SpinRequest, create(SpinRequest, { name: "nothere" })))).rejects.toMatchObject({ code: Code.NotFound });
    // A name of another API's resource is not a gizmo.
    await expect(spin(toBinary(SpinRequest, create(SpinRequest, { name: "pi:arm1" })))).rejects.toMatchObject({ code: Code.NotFound });
  });

  it("answers a service no part serves, and a JSON call it cannot pass, as unknown", async () => {
    await expect(rawCall("/acme.other.v1.OtherService/Do", new Uint8Array())).rejects.toMatchObject({ code: Code.Unimplemented });
    const json = createClient(Gizmo, createConnectTransport({ baseUrl: main.url, httpVersion: "2", useBinaryFormat: false })) as unknown as { spin(r: object): Promise<unknown> };
    await expect(json.spin(create(SpinRequest, { name: "g1" }))).rejects.toMatchObject({ code: Code.Unimplemented });
  });

  it("passes the remote's own refusal of a method it does not have, for many made-up methods, and keeps answering", async () => {
    const name = toBinary(SpinRequest, create(SpinRequest, { name: "g1" }));
    for (let i = 0; i < 300; i++) {
      await expect(rawCall(`/${Gizmo.typeName}/Made${i}`, name)).rejects.toMatchObject({ code: Code.Unimplemented });
    }
    expect(await new VIAM.ArmClient(robot, "pi:arm1").getEndPosition()).toMatchObject({ y: 200 });
  });

  it("fails calls UNAVAILABLE while the remote is gone, the arm still listed", async () => {
    const port = (remote.address() as AddressInfo).port;
    await new Promise<void>((resolve) => {
      remote.close(() => resolve());
      // Ends the main part's connection now, not at its next check.
      for (const session of remoteSessions) session.destroy();
    });
    const failure = await eventually(
      () => new VIAM.ArmClient(robot, "pi:arm1").getEndPosition().then(() => undefined, (error: unknown) => error),
      "the arm's calls to fail",
    );
    expect(String(failure)).toMatch(/unavailable/i);
    expect((await robot.resourceNames()).map((n) => n.name)).toContain("arm1");
    remote = await listenRemote(port);
    const back = await eventually(() => new VIAM.ArmClient(robot, "pi:arm1").getEndPosition().catch(() => undefined), "the arm back");
    expect(back).toMatchObject({ z: 300 });
  });
});

/** One unary gRPC call through the main part with `bytes` as its request, nothing decoded: the answer's bytes, or its status thrown. */
async function rawCall(path: string, bytes: Uint8Array): Promise<Uint8Array> {
  const session = http2.connect(main.url);
  session.on("error", () => {});
  try {
    return await new Promise<Uint8Array>((resolve, reject) => {
      const stream = session.request({ ":method": "POST", ":path": path, "content-type": "application/grpc", te: "trailers" });
      const body: Buffer[] = [];
      const fields: Record<string, string> = {};
      const note = (headers: http2.IncomingHttpHeaders) => {
        for (const name of ["grpc-status", "grpc-message"]) if (typeof headers[name] === "string") fields[name] = headers[name];
      };
      stream.on("response", note);
      stream.on("trailers", note);
      stream.on("data", (chunk: Buffer) => body.push(chunk));
      stream.on("error", reject);
      stream.on("close", () => {
        if (fields["grpc-status"] === "0") return resolve(Buffer.concat(body).subarray(5));
        reject(Object.assign(new Error(decodeURIComponent(fields["grpc-message"] ?? "")), { code: Number(fields["grpc-status"]) }));
      });
      const frame = Buffer.alloc(5 + bytes.length);
      frame.writeUInt32BE(bytes.length, 1);
      frame.set(bytes, 5);
      stream.end(frame);
    });
  } finally {
    session.close();
  }
}

// The official SDK as a wire client: a RobotClient dialled directly (gRPC-web over fetch, or
// gRPC over HTTP/2 through its GRPC_TRANSPORT_FACTORY hook) or over WebRTC (the machine's address
// as its signaling address, node-datachannel's RTCPeerConnection standing in for a browser's),
// and its own service clients made by
// `robot.createServiceClient`, so every call goes through the SDK's transport stack: its dial
// (GetOperations first), credentials (Authenticate as it dials), sessions and error mapping.
// Messages are carried by small v1-shaped classes around our generated ones; the bytes on the
// wire are the same as the SDK's own classes write.
import { create, fromBinary, toBinary, toJson, type DescMessage, type JsonValue, type Message } from "@bufbuild/protobuf";
import * as VIAM from "@viamrobotics/sdk";
import { RTCIceCandidate, RTCPeerConnection, RTCSessionDescription } from "node-datachannel/polyfill";
import { createSdkGrpcTransports, type SdkGrpcTransports } from "../../helpers/sdk-grpc-transport.js";
import { sdkDialCause } from "../../helpers/sdk-robot.js";
import type { WireCall, WireClient, WireClientKind, WireCredentials, WireOutcome, WireTarget } from "../wire-client.js";
import { detailTypes, headerRecord } from "./outcomes.js";

const cannot = {
  raw: "the SDK encodes every body itself",
  anonymous: "its dial calls GetOperations first, and a server with keys refuses that: no other call is ever sent",
};

export const sdkGrpcWebKind: WireClientKind = {
  name: "SDK gRPC-web",
  protocol: "grpc-web",
  http: "1.1",
  // fetch sends a fixed body with its length.
  declaresLength: true,
  cannot,
  open: (target, credentials) => openSdk(target, credentials, "grpc-web"),
};

export const sdkGrpcKind: WireClientKind = {
  name: "SDK gRPC",
  protocol: "grpc",
  http: "2",
  declaresLength: false,
  cannot,
  open: (target, credentials) => openSdk(target, credentials, "grpc"),
};

export const sdkWebRtcKind: WireClientKind = {
  name: "SDK WebRTC",
  // Each call is a stream of proto.rpc.webrtc.v1 frames carrying gRPC's metadata and status.
  protocol: "grpc",
  http: "2",
  declaresLength: false,
  cannot: {
    ...cannot,
    // Its WebRTC client, 0.61: a unary call's error becomes the status message alone, and a stream's
    // error after its headers is dropped; the server's WebRTC tests read the frames themselves.
    "error-status": "the SDK's WebRTC client keeps only an error's message: every error reads UNKNOWN, without its metadata",
    deadline: "the SDK's WebRTC client sends no timeout with a call, and stops waiting without telling the server",
    abort: "the SDK's WebRTC client does not reset a unary call's stream when the call is abandoned",
  },
  open: (target, credentials) => openSdk(target, credentials, "webrtc"),
};

type SdkWay = "grpc-web" | "grpc" | "webrtc";

function dialOptions(target: WireTarget, way: SdkWay) {
  if (way !== "webrtc") return { host: target.sdkHost };
  Object.assign(globalThis, { RTCPeerConnection, RTCSessionDescription, RTCIceCandidate });
  return { host: new URL(target.url).host, signalingAddress: target.url, iceServers: [] };
}

function openSdk(target: WireTarget, credentials: WireCredentials | undefined, way: SdkWay): WireClient {
  const http2 = way === "grpc";
  let transports: SdkGrpcTransports | undefined;
  const before = globalThis.VIAM;
  const robot = new VIAM.RobotClient();
  let dialled: Promise<WireOutcome | undefined> | undefined;
  const dial = () =>
    (dialled ??= (async () => {
      if (http2) {
        transports = createSdkGrpcTransports();
        globalThis.VIAM = { GRPC_TRANSPORT_FACTORY: transports.factory };
      }
      try {
        await robot.dial({ ...dialOptions(target, way), noReconnect: true, ...sdkCredentials(credentials) } as never);
        return undefined;
      } catch (error) {
        return failure(sdkDialCause(error));
      }
    })());
  const call = async (wire: WireCall, kind: "unary" | "stream") => (await dial()) ?? (await run(robot, wire, kind));
  return {
    unary: (wire) => call(wire, "unary"),
    stream: (wire) => call(wire, "stream"),
    raw: () => Promise.reject(new Error(cannot.raw)),
    async close() {
      if (dialled) await robot.disconnect();
      transports?.close();
      if (http2) globalThis.VIAM = before;
    },
  };
}

function sdkCredentials(credentials: WireCredentials | undefined) {
  if (!credentials) return {};
  if ("token" in credentials) return { credentials: { type: "access-token" as const, payload: credentials.token } };
  return { credentials: { type: "api-key" as const, payload: credentials.apiKey.key, authEntity: credentials.apiKey.id } };
}

async function run(robot: VIAM.RobotClient, wire: WireCall, kind: "unary" | "stream"): Promise<WireOutcome> {
  const { method } = wire;
  const localName = method.localName;
  const service = {
    typeName: method.parent.typeName,
    methods: { [localName]: { name: method.name, I: v1Type(method.input), O: v1Type(method.output), kind: kind === "unary" ? 0 : 1 } },
  };
  const client = robot.createServiceClient(service as never) as unknown as Record<string, (input: unknown, options: object) => unknown>;
  let header: Headers | undefined;
  let trailer: Headers | undefined;
  const controller = wire.abortWhen ? new AbortController() : undefined;
  void wire.abortWhen?.then(() => controller!.abort());
  const options = {
    headers: wire.headers,
    timeoutMs: wire.timeoutMs,
    signal: controller?.signal,
    onHeader: (h: Headers) => (header = h),
    onTrailer: (t: Headers) => (trailer = t),
  };
  const input = new (v1Type(method.input))(wire.request);
  const messages: JsonValue[] = [];
  try {
    if (kind === "unary") {
      const response = (await client[localName]!(input, options)) as V1Shim;
      return { code: 0, message: "", value: response.json(), metadata: headerRecord(header, trailer), details: [] };
    }
    for await (const response of client[localName]!(input, options) as AsyncIterable<V1Shim>) messages.push(response.json());
    return { code: 0, message: "", messages, metadata: headerRecord(header, trailer), details: [] };
  } catch (error) {
    return { ...failure(error), ...(kind === "stream" ? { messages } : {}) };
  }
}

function failure(error: unknown): WireOutcome {
  const e = VIAM.ConnectError.from(error);
  return { code: e.code, message: e.rawMessage, metadata: headerRecord(e.metadata), details: detailTypes(e.details) };
}

interface V1Shim {
  toBinary(): Uint8Array;
  json(): JsonValue;
}

// What connect v1 asks of a message type: `new I(init)`, `instance.toBinary()`, `O.fromBinary(bytes)`.
const shims = new Map<DescMessage, new (init?: unknown) => V1Shim>();
function v1Type(schema: DescMessage): new (init?: unknown) => V1Shim {
  let shim = shims.get(schema);
  if (!shim) {
    shim = class {
      static readonly typeName = schema.typeName;
      readonly message: Message;
      constructor(init?: unknown) {
        this.message = create(schema, init as never);
      }
      static fromBinary(bytes: Uint8Array) {
        const made = new this();
        (made as { message: Message }).message = fromBinary(schema, bytes);
        return made;
      }
      toBinary() {
        return toBinary(schema, this.message);
      }
      json() {
        return toJson(schema, this.message);
      }
    };
    shims.set(schema, shim);
  }
  return shim;
}

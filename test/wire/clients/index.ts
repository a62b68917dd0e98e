// The client table: every client the wire-conformance suite drives, one row each. A row says what
// the client cannot express, and why; the suite runs every case a client can express on it.
import type { WireClientKind } from "../wire-client.js";
import { connectNodeKind } from "./connect-node-client.js";
import { curlKind } from "./curl-client.js";
import { grpcJsKind } from "./grpc-js-wire-client.js";
import { sdkGrpcKind, sdkGrpcWebKind, sdkWebRtcKind } from "./sdk-client.js";
import { socketKind } from "./socket-client.js";

export const wireClients: readonly WireClientKind[] = [
  sdkGrpcWebKind,
  sdkGrpcKind,
  sdkWebRtcKind,
  grpcJsKind,
  connectNodeKind("grpc"),
  connectNodeKind("grpc-web"),
  connectNodeKind("connect"),
  curlKind("grpc"),
  curlKind("grpc-web"),
  curlKind("connect"),
  socketKind("grpc-web"),
  socketKind("connect"),
];

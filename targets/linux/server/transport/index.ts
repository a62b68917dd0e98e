// The API port of svc-server: gRPC, gRPC-web and Connect on one listener, CORS and the Host
// check, plain HTTP routes, and the limits every request and connection is held to.
export { createApiServer, type ApiServer, type ApiServerOptions } from "./api-server.js";
export { ListenError } from "../../system/index.js";
export { formatListeningOn, listeningOn, type ListeningOn } from "./listening-on.js";
export { parseBindAddress, type BindAddress, type BindAddressResult } from "./bind-address.js";
export { corsAllowedHeaders, corsExposedHeaders, type AccessRules, type CorsOptions } from "./cors.js";
export { createMachineNames, normalizeHost, splitHostPort, type MachineNames } from "./machine-names.js";
export type { RpcAdmission, RpcCheck, RpcRefusal } from "../../../../node/rpc/rpc-refusal.js";
export { admittedEntityKey } from "../../../../node/rpc/rpc-handler.js";
export type { HttpRoute } from "./http-routes.js";
export type { HttpHandler, HttpRequest, HttpResponse } from "../../../../node/rpc/http-types.js";
export { isLoopbackAddress, peerKey, peerOfRequest, type ConnectionGrant, type Peer, type PeerSource } from "./peer.js";
export type { PortCalls } from "./api-server.js";
export { DEFAULT_MAX_MESSAGE_BYTES, DEFAULT_TRANSPORT_LIMITS, MESSAGE_SIZE_SETTING, type TransportLimits } from "./limits.js";
export { boundText, loggedValue, LOGGED_VALUE_MAX_CHARS } from "../../../../node/rpc/bounded-text.js";
export { createPeerLogLimit, type PeerLogLimit, type PeerLogLimitOptions } from "../../../../node/rpc/peer-log-limit.js";
export { callControlKey, type CallControl } from "../../../../node/rpc/call-control.js";
export type { Forward, ForwardOf } from "../../../../node/rpc/lean-calls.js";
export { isPromise, whenReady, type MaybeAsync } from "../../../../node/rpc/maybe-async.js";

// The API port of svc-server: gRPC, gRPC-web and Connect on one listener, CORS, plain HTTP routes.
export { createApiServer, ListenError, type ApiServer, type ApiServerOptions } from "./api-server.js";
export { formatListeningOn, listeningOn, type ListeningOn } from "./listening-on.js";
export { parseBindAddress, type BindAddress, type BindAddressResult } from "./bind-address.js";
export { corsAllowedHeaders, corsExposedHeaders, type CorsOptions } from "./cors.js";
export type { HttpRoute } from "./http-routes.js";
export type { HttpHandler, HttpRequest, HttpResponse } from "./http-types.js";
export { isLoopbackAddress, peerKey, type Peer } from "./peer.js";

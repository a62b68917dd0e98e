// CORS for browser clients of the MCU: the origin is echoed back when allowed (any, when no list
// is given), a preflight learns the methods and the headers gRPC-web and the Viam SDKs send, and
// an answer exposes the gRPC status headers.
import type { HeaderList, HttpHead } from "./http-arrival.js";

// The protocol headers of gRPC-web and Connect, and what the Viam SDKs add.
const allowHeaders = [
  "content-type",
  "connect-protocol-version",
  "connect-timeout-ms",
  "grpc-timeout",
  "x-grpc-web",
  "x-user-agent",
  "authorization",
  "viam-sid",
  "rpc-host",
  "key_id",
  "key",
  "viam_client",
].join(", ");
const exposeHeaders = "grpc-status, grpc-message, grpc-status-details-bin";

/** The CORS headers for a request (a preflight when `preflight`), from origins as browsers send them. */
export function createCorsHeaders(allowedOrigins: readonly string[] | undefined): (head: HttpHead, preflight: boolean) => HeaderList {
  const origins = allowedOrigins ? new Set(allowedOrigins) : undefined;
  // Thin: on a microcontroller a closure carries a copy of its code.
  return (head, preflight) => corsHeaders(origins, head, preflight);
}

function corsHeaders(origins: ReadonlySet<string> | undefined, head: HttpHead, preflight: boolean): HeaderList {
  const origin = head.header("origin");
  if (origin === undefined || (origins !== undefined && !origins.has(origin))) return [];
  const headers: HeaderList = [
    ["access-control-allow-origin", origin],
    ["access-control-allow-credentials", "true"],
    ["vary", "Origin"],
  ];
  if (!preflight) headers.push(["access-control-expose-headers", exposeHeaders]);
  else {
    headers.push(["access-control-allow-methods", "POST, GET, PUT, OPTIONS"], ["access-control-allow-headers", allowHeaders], ["access-control-max-age", "7200"]);
    if (head.header("access-control-request-private-network") === "true") headers.push(["access-control-allow-private-network", "true"]);
  }
  return headers;
}

// HTTP as the MCU speaks it, above whatever moves the bytes (Moddable's HTTP server on a device,
// the Node shim on a host): gRPC-web POSTs go to the machine's dispatcher with their session and
// deadline, CORS lets browser clients in, and an optional route takes a new configuration.
// Everything else is a plain 404, 405 or 415.
import { Code, type Clock } from "../../core/index.js";
import { decodeUtf8, encodeUtf8 } from "../../core/rpc/codec/index.js";
import type { DispatchedCall, DispatchRequest } from "../../core/rpc/dispatch/index.js";
import type { ConfigReport } from "./mcu-machine.js";

export interface HttpRequest {
  method: string;
  /** The request target, query included. */
  path: string;
  /** A request header by its lower-case name. */
  header(name: string): string | undefined;
  body: Uint8Array;
}

export interface HttpResponse {
  status: number;
  headers: Array<[string, string]>;
  body: Uint8Array;
}

export interface HttpCall {
  readonly done: Promise<HttpResponse>;
  /** The client went away. */
  cancel(): void;
}

export interface HttpExchangeOptions {
  serve(request: DispatchRequest): DispatchedCall;
  clock: Clock;
  /** Takes a new configuration's text (PUT /svc/config); the route is absent without it. */
  applyConfig?: (text: string) => Promise<ConfigReport>;
  /** Origins browsers may call from, exactly as they send them; any when absent. */
  allowedOrigins?: readonly string[];
}

export interface HttpExchange {
  handle(request: HttpRequest): HttpCall;
}

/** Where a new configuration can be PUT, when the exchange accepts one. */
export const CONFIG_ROUTE = "/svc/config";

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

const timeoutUnits: Record<string, number> = { H: 3_600_000, M: 60_000, S: 1_000, m: 1, u: 0.001, n: 0.000001 };

/** grpc-timeout ("100m", "5S") in milliseconds, or undefined when absent or malformed. */
export function grpcTimeoutMs(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d{1,8})([HMSmun])$/.exec(value.trim());
  return match ? Number(match[1]) * timeoutUnits[match[2]!]! : undefined;
}

function text(status: number, message: string, headers: Array<[string, string]> = []): HttpCall {
  const response = { status, headers: [["content-type", "text/plain; charset=utf-8"], ...headers] as Array<[string, string]>, body: encodeUtf8(`${message}\n`) };
  return { done: Promise.resolve(response), cancel: () => {} };
}

export function createHttpExchange(options: HttpExchangeOptions): HttpExchange {
  const { clock } = options;
  const origins = options.allowedOrigins ? new Set(options.allowedOrigins) : undefined;

  function cors(request: HttpRequest, preflight: boolean): Array<[string, string]> {
    const origin = request.header("origin");
    if (origin === undefined || (origins !== undefined && !origins.has(origin))) return [];
    const headers: Array<[string, string]> = [
      ["access-control-allow-origin", origin],
      ["access-control-allow-credentials", "true"],
      ["vary", "Origin"],
    ];
    if (!preflight) headers.push(["access-control-expose-headers", exposeHeaders]);
    else {
      headers.push(["access-control-allow-methods", "POST, GET, PUT, OPTIONS"], ["access-control-allow-headers", allowHeaders], ["access-control-max-age", "7200"]);
      if (request.header("access-control-request-private-network") === "true") headers.push(["access-control-allow-private-network", "true"]);
    }
    return headers;
  }

  function grpcWeb(request: HttpRequest, path: string, contentType: string): HttpCall {
    const call = options.serve({ path, body: request.body, sessionId: request.header("viam-sid") ?? "" });
    const timeout = grpcTimeoutMs(request.header("grpc-timeout"));
    const timer = timeout === undefined ? undefined : clock.setTimeout(() => call.cancel(Code.DeadlineExceeded, "the call's deadline passed"), timeout);
    const headers: Array<[string, string]> = [["content-type", contentType], ...cors(request, false)];
    return {
      done: call.done.then((body) => {
        if (timer !== undefined) clock.clearTimeout(timer);
        return { status: 200, headers, body };
      }),
      cancel: () => call.cancel(),
    };
  }

  function putConfig(request: HttpRequest, apply: (text: string) => Promise<ConfigReport>): HttpCall {
    let configText: string;
    try {
      configText = decodeUtf8(request.body);
    } catch {
      return text(400, "the configuration is not UTF-8 text");
    }
    const headers: Array<[string, string]> = [["content-type", "application/json"], ...cors(request, false)];
    return {
      done: apply(configText).then((report) => ({
        status: report.outcome === "refused" ? 422 : 200,
        headers,
        body: encodeUtf8(JSON.stringify(report)),
      })),
      cancel: () => {},
    };
  }

  return {
    handle(request) {
      const query = request.path.indexOf("?");
      const path = query < 0 ? request.path : request.path.slice(0, query);
      if (request.method === "OPTIONS") {
        const preflight = request.header("access-control-request-method") !== undefined;
        return { done: Promise.resolve({ status: 204, headers: cors(request, preflight), body: new Uint8Array(0) }), cancel: () => {} };
      }
      if (path === CONFIG_ROUTE && options.applyConfig) {
        if (request.method !== "PUT") return text(405, `${CONFIG_ROUTE} takes PUT`, [["allow", "PUT"]]);
        return putConfig(request, options.applyConfig);
      }
      const contentType = (request.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
      if (contentType.startsWith("application/grpc-web")) {
        if (request.method !== "POST") return text(405, "gRPC-web calls are POSTs", [["allow", "POST"]]);
        if (contentType !== "application/grpc-web" && contentType !== "application/grpc-web+proto") {
          return text(415, `${contentType} is not served: send application/grpc-web+proto`);
        }
        return grpcWeb(request, path, contentType);
      }
      if (contentType.startsWith("application/grpc") || contentType.startsWith("application/connect") || contentType === "application/proto") {
        return text(415, `${contentType} is not served: the MCU speaks gRPC-web (application/grpc-web+proto)`);
      }
      return text(404, `nothing at ${path}: the MCU serves gRPC-web calls`);
    },
  };
}

// HTTP as the MCU speaks it, above whatever moves the bytes (Moddable's HTTP server on a device,
// the Node shim on a host), in two steps so nothing is kept that will not be used. From a
// request's head alone the exchange decides who may call (a token when API keys are configured)
// and how many body bytes to read (body-limits.ts); the transport then reads at most that and
// hands the body over, or says it went past. gRPC-web POSTs go to the machine's dispatcher with
// their session and deadline, CORS lets browser clients in, and an optional route takes a new
// configuration. Everything else is a plain 404, 405 or 415.
import { Code, type Clock } from "../../core/index.js";
import { responseBody, type DispatchedCall, type DispatchRequest } from "./dispatch/index.js";
import { AUTHENTICATE_PATH, type ApiKeyGate, type Refusal } from "./api-key-gate.js";
import { CONFIG_ROUTE, MAX_GRPC_WEB_BODY_BYTES, mediaTypeOf, routeOf } from "./body-limits.js";
import { openConfigRoute } from "./config-route.js";
import { createCorsHeaders } from "./cors-headers.js";
import { accepting, answer, answered, text, type HttpArrival, type HttpCall, type HttpHead, type HttpRequest } from "./http-arrival.js";
import type { ConfigReport } from "./mcu-machine.js";

export { CONFIG_ROUTE };
export type { HttpArrival, HttpCall, HttpHead, HttpRequest, HttpResponse } from "./http-arrival.js";

export interface HttpExchangeOptions {
  serve(request: DispatchRequest): DispatchedCall;
  clock: Clock;
  /** Takes a new configuration's text (PUT /svc/config); the route is absent without it. */
  applyConfig?: (text: string) => Promise<ConfigReport>;
  /** Who may call (the machine's `auth`); everyone when absent. */
  auth?: ApiKeyGate;
  /** Origins browsers may call from, exactly as they send them; any when absent. */
  allowedOrigins?: readonly string[];
}

export interface HttpExchange {
  /** A request's head is in: decides what may follow. */
  open(head: HttpHead): HttpArrival;
  /** `open`, then `finish` with the whole body (past the limit counts as dropped). */
  handle(request: HttpRequest): HttpCall;
}

const timeoutUnits: Record<string, number> = { H: 3_600_000, M: 60_000, S: 1_000, m: 1, u: 0.001, n: 0.000001 };

/** grpc-timeout ("100m", "5S") in milliseconds, or undefined when absent or malformed. */
export function grpcTimeoutMs(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d{1,8})([HMSmun])$/.exec(value.trim());
  return match ? Number(match[1]) * timeoutUnits[match[2]!]! : undefined;
}

/** What the exchange works with: its options, and the CORS headers made from them. */
interface ExchangeParts {
  readonly options: HttpExchangeOptions;
  readonly cors: ReturnType<typeof createCorsHeaders>;
}

// The methods are thin: on a microcontroller each closure carries a copy of its code, so the
// work is in the module functions below, made once.
export function createHttpExchange(options: HttpExchangeOptions): HttpExchange {
  const parts: ExchangeParts = { options, cors: createCorsHeaders(options.allowedOrigins) };
  return {
    open: (head) => open(parts, head),
    handle: (request) => open(parts, request).finish(request.body),
  };
}

/** Why this caller may not go on (no or bad token when keys are configured), or undefined. */
function refusalOf(parts: ExchangeParts, head: HttpHead): Refusal | undefined {
  const { auth } = parts.options;
  return auth?.required ? auth.check(head.header("authorization"), head.peer) : undefined;
}

function grpcStatus(parts: ExchangeParts, head: HttpHead, contentType: string, code: Code, message: string): HttpCall {
  return answer(200, [["content-type", contentType], ...parts.cors(head, false)], responseBody(undefined, code, message));
}

function grpcWeb(parts: ExchangeParts, head: HttpHead, path: string, contentType: string, body: Uint8Array): HttpCall {
  const { clock } = parts.options;
  const call = parts.options.serve({ path, body, sessionId: head.header("viam-sid") ?? "" });
  const timeout = grpcTimeoutMs(head.header("grpc-timeout"));
  const timer = timeout === undefined ? undefined : clock.setTimeout(() => call.cancel(Code.DeadlineExceeded, "the call's deadline passed"), timeout);
  const headers: Array<[string, string]> = [["content-type", contentType], ...parts.cors(head, false)];
  return {
    done: call.done.then((bytes) => {
      if (timer !== undefined) clock.clearTimeout(timer);
      return { status: 200, headers, body: bytes };
    }),
    cancel: () => call.cancel(),
  };
}

function openGrpcWeb(parts: ExchangeParts, head: HttpHead, path: string, contentType: string): HttpArrival {
  const { auth } = parts.options;
  if (head.method !== "POST") return answered(text(405, "gRPC-web calls are POSTs", [["allow", "POST"]]));
  if (contentType !== "application/grpc-web" && contentType !== "application/grpc-web+proto") {
    return answered(text(415, `${contentType} is not served: send application/grpc-web+proto`));
  }
  // Authenticate is the one call without a token, but its credentials obey the plaintext rule.
  const refusal = path === AUTHENTICATE_PATH ? (auth?.required ? auth.credentialsProblem(head.peer) : undefined) : refusalOf(parts, head);
  if (refusal) return answered(grpcStatus(parts, head, contentType, refusal.code, refusal.message));
  return accepting(
    MAX_GRPC_WEB_BODY_BYTES,
    (body) => grpcWeb(parts, head, path, contentType, body),
    () => grpcStatus(parts, head, contentType, Code.ResourceExhausted, `the request body is larger than ${MAX_GRPC_WEB_BODY_BYTES} bytes, the most svc-mcu reads for a call`),
  );
}

function open(parts: ExchangeParts, head: HttpHead): HttpArrival {
  const { options, cors } = parts;
  const path = routeOf(head.path);
  if (head.method === "OPTIONS") {
    const preflight = head.header("access-control-request-method") !== undefined;
    return answered(answer(204, cors(head, preflight), new Uint8Array(0)));
  }
  if (path === CONFIG_ROUTE && options.applyConfig) {
    return openConfigRoute(head, { apply: options.applyConfig, refusal: head.method === "PUT" ? refusalOf(parts, head) : undefined, cors: cors(head, false) });
  }
  const contentType = mediaTypeOf(head.header("content-type"));
  if (contentType.startsWith("application/grpc-web")) return openGrpcWeb(parts, head, path, contentType);
  if (contentType.startsWith("application/grpc") || contentType.startsWith("application/connect") || contentType === "application/proto") {
    return answered(text(415, `${contentType} is not served: the MCU speaks gRPC-web (application/grpc-web+proto)`));
  }
  return answered(text(404, `nothing at ${path}: the MCU serves gRPC-web calls`));
}

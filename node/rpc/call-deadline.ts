// A call's deadline as its caller states it: `grpc-timeout` (gRPC and gRPC-web, "100m", "5S") or
// `connect-timeout-ms` (Connect). connect parses these too, and aborts the handler's signal at the
// deadline, but nothing then ends the call: a handler that does not watch its signal answers
// late or never, and a body still arriving is read on. This deadline is the one the API port
// holds every call to: its signal ends the reading of the body, and through the call's signal
// the handler and the wait for its answer (call-bounds.ts).
import { ConnectError } from "@connectrpc/connect";
import { parseTimeout as parseConnectTimeout } from "@connectrpc/connect/protocol-connect";
import { parseTimeout as parseGrpcTimeout } from "@connectrpc/connect/protocol-grpc";
import { Code } from "../../core/index.js";
import type { IncomingHttpHeaders } from "node:http2";

export interface CallDeadline {
  /** Aborted at the deadline with DEADLINE_EXCEEDED. */
  readonly signal: AbortSignal;
  /** Milliseconds left before the deadline (negative once past). */
  remainingMs(): number;
  /** The call is over: the timer is dropped. */
  clear(): void;
}

/** The deadline a request's `headers` ask for, started now; undefined when they ask for none (or name one connect will refuse). */
export function startCallDeadline(headers: IncomingHttpHeaders): CallDeadline | undefined {
  const grpc = (headers["content-type"] ?? "").startsWith("application/grpc");
  const header = grpc ? "grpc-timeout" : "connect-timeout-ms";
  const value = headers[header];
  if (typeof value !== "string") return undefined;
  const { timeoutMs } = (grpc ? parseGrpcTimeout : parseConnectTimeout)(value, Number.MAX_SAFE_INTEGER);
  if (timeoutMs === undefined) return undefined;
  const endsAt = Date.now() + timeoutMs;
  const controller = new AbortController();
  const expire = () => controller.abort(new ConnectError(`the call passed its deadline (${header}: ${value})`, Code.DeadlineExceeded));
  // setTimeout holds at most 2^31-1 ms; a deadline further away than that is no deadline.
  const timer = timeoutMs <= 2 ** 31 - 1 ? setTimeout(expire, timeoutMs) : undefined;
  return { signal: controller.signal, remainingMs: () => endsAt - Date.now(), clear: () => clearTimeout(timer) };
}

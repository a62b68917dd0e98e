// The error a remote resource raises when a call fails. It is the core's SvcError, so the
// serving side's transport sends it on with its code untouched: an error raised in a module
// reaches svc-server's client with the gRPC code and message the module gave it. A peer that
// cannot be reached (no socket, connection refused or dropped) is UNAVAILABLE, naming the
// resource; a peer that does not serve the method is UNIMPLEMENTED; the caller's own deadline
// or cancellation keeps its code.
import { ConnectError } from "@connectrpc/connect";
import { Code, SvcError } from "../../../core/index.js";

export class RemoteCallError extends SvcError {
  override name = "RemoteCallError";

  constructor(
    code: Code,
    message: string,
    /** The full name of the resource called (`rdk:component:motor/left`). */
    readonly resource: string,
    /** The RPC that failed (`GoFor`). */
    readonly rpc: string,
    /** False when the peer was never reached or the connection dropped before it answered. */
    readonly answered: boolean,
    cause?: unknown,
  ) {
    super(code, message, cause);
  }
}

/** What a failed call threw, as the error the remote resource raises; errors raised before sending pass through. */
export function toRemoteCallError(thrown: unknown, resource: string, rpc: string): unknown {
  if (!(thrown instanceof ConnectError)) return thrown;
  const code: Code = thrown.code;
  // A status the peer sent comes with its trailers.
  if (thrown.metadata.has("grpc-status")) return new RemoteCallError(code, thrown.rawMessage, resource, rpc, true, thrown);
  // An HTTP answer without a gRPC status: the peer is there but does not serve this method.
  if (answeredAtAll(thrown.metadata)) {
    const message =
      code === Code.Unimplemented
        ? `${resource}: the peer does not serve ${rpc} for this API (${thrown.rawMessage})`
        : `${resource}: ${rpc} failed: ${thrown.rawMessage}`;
    return new RemoteCallError(code, message, resource, rpc, true, thrown);
  }
  if (code === Code.Canceled || code === Code.DeadlineExceeded) {
    return new RemoteCallError(code, `${rpc} on ${resource}: ${thrown.rawMessage}`, resource, rpc, false, thrown);
  }
  return new RemoteCallError(Code.Unavailable, `${resource} cannot be reached: ${thrown.rawMessage}`, resource, rpc, false, thrown);
}

/** Failures on this side (no connection, dropped connection, deadline) carry no response headers. */
function answeredAtAll(metadata: Headers): boolean {
  for (const _ of metadata.keys()) return true;
  return false;
}

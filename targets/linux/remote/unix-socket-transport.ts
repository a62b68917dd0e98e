// A gRPC connect transport (HTTP/2) whose connection goes to a unix socket: the channel between
// svc-server and its module processes. It dials lazily and dials again whenever the connection
// is gone, so a peer restarted on the same path (a module after a crash) is reached by the next
// call without any action from the caller. Closing it ends the connection and fails every later
// call.
import { ConnectError, type Interceptor, type Transport } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import http2 from "node:http2";
import { connect } from "node:net";
import { Code } from "../../../core/index.js";
import { rawUnary, type RawUnaryCall } from "./raw-unary.js";

export interface UnixSocketTransportOptions {
  /** Closes the connection after this long without calls (it is dialled again on the next). Default 15 minutes. */
  readonly idleConnectionTimeoutMs?: number;
  /** A deadline every call gets unless it sets its own; none by default. */
  readonly defaultTimeoutMs?: number;
  /** Run around every call, first to last (headers a peer expects, logging). */
  readonly interceptors?: readonly Interceptor[];
}

export interface UnixSocketTransport extends Transport {
  readonly socketPath: string;
  /** One unary call as bytes (raw-unary.ts), on a connection of its own that asks nothing of connect per call. */
  rawUnary(call: RawUnaryCall): Promise<Uint8Array>;
  /** Ends the connection; calls in flight fail, later calls fail at once. Idempotent. */
  close(): void;
  readonly closed: boolean;
}

// Only an http: authority is needed for the :authority header; the socket is the real address.
const AUTHORITY = "http://localhost";

export function createUnixSocketTransport(socketPath: string, options: UnixSocketTransportOptions = {}): UnixSocketTransport {
  const sessions = new Http2SessionManager(
    AUTHORITY,
    { idleConnectionTimeoutMs: options.idleConnectionTimeoutMs },
    { createConnection: () => connect(socketPath) },
  );
  const grpc = createGrpcTransport({
    baseUrl: AUTHORITY,
    sessionManager: sessions,
    defaultTimeoutMs: options.defaultTimeoutMs,
    interceptors: [...(options.interceptors ?? [])],
  });
  const raw = createRawSession(socketPath, options.idleConnectionTimeoutMs ?? DEFAULT_IDLE_MS);
  let closed = false;
  const refuse = () => new ConnectError(`the connection to ${socketPath} has been closed`, Code.Unavailable);

  return {
    socketPath,
    get closed() {
      return closed;
    },
    unary(method, signal, timeoutMs, header, input, contextValues) {
      if (closed) return Promise.reject(refuse());
      return grpc.unary(method, signal, timeoutMs, header, input, contextValues);
    },
    rawUnary(call) {
      if (closed) return Promise.reject(refuse());
      return rawUnary(raw.session, call);
    },
    stream(method, signal, timeoutMs, header, input, contextValues) {
      if (closed) return Promise.reject(refuse());
      return grpc.stream(method, signal, timeoutMs, header, input, contextValues);
    },
    close() {
      if (closed) return;
      closed = true;
      sessions.abort(new ConnectError(`the connection to ${socketPath} has been closed`, Code.Canceled));
      raw.close();
    },
  };
}

const DEFAULT_IDLE_MS = 15 * 60_000;

// The connection raw calls go on: dialled when first needed, again once it is gone (a module
// restarted on the same path), closed after a while without calls.
function createRawSession(socketPath: string, idleMs: number): { session: () => http2.ClientHttp2Session; close(): void } {
  let current: http2.ClientHttp2Session | undefined;
  const forget = (session: http2.ClientHttp2Session) => () => {
    if (current === session) current = undefined;
  };
  return {
    session() {
      if (current && !current.closed && !current.destroyed) return current;
      const session = http2.connect(AUTHORITY, { createConnection: () => connect(socketPath) });
      // A peer gone mid-frame raises an error here; 'close' follows and the next call dials again.
      session.on("error", () => {});
      session.once("close", forget(session));
      session.once("goaway", forget(session));
      session.setTimeout(idleMs, () => session.close());
      return (current = session);
    },
    close() {
      current?.destroy();
      current = undefined;
    },
  };
}

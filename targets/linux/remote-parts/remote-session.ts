// The HTTP/2 connection svc-server holds to one remote part, plaintext (h2c) or TLS as its URL
// says, for the calls it makes itself: signing in and listing; calls passed through as bytes go
// the cheapest way the remote takes (passed-calls.ts).
// It is dialled when the part connects or a call needs it, and again once it is gone, and says
// when a connection it held goes away (a remote killed, a network lost) so the part can say so at
// once rather than at its next check. Certificates are checked against the system's authorities
// (and NODE_EXTRA_CA_CERTS), never waived.
import { ConnectError } from "@connectrpc/connect";
import http2 from "node:http2";
import { Code, errorMessage } from "../../../core/index.js";
import { describeConnectionError, rawUnary, type RawUnaryCall } from "../remote/index.js";
import { createPassedCalls } from "./passed-calls.js";

export interface RemoteSessionOptions {
  /** "http://host:port" or "https://host:port". */
  readonly url: string;
  /** Who is called, for messages: "remote pi". */
  readonly peer: string;
  /** Told once for each connection that goes away after it was made, with what ended it when that is known. */
  readonly onGone: (why: string | undefined) => void;
}

export interface RemoteSession {
  /** Resolves once connected (at once when it is); rejects with why not: UNAVAILABLE, or `signal`'s reason. */
  connect(signal?: AbortSignal): Promise<void>;
  /** One unary call as bytes on the connection, dialling it first when there is none. */
  call(call: RawUnaryCall): Promise<Uint8Array>;
  /** A call passed through for a caller of this machine: the same, the cheapest way the remote takes. */
  pass(call: RawUnaryCall): Promise<Uint8Array>;
  /** What broke the last connection (or the dial), in words; undefined while it holds. */
  failure(): string | undefined;
  /** Drops the connection; the next call dials again. */
  reset(): void;
  close(): void;
}

export function createRemoteSession(options: RemoteSessionOptions): RemoteSession {
  let current: http2.ClientHttp2Session | undefined;
  let closed = false;
  let lastFailure: string | undefined;
  /** The error that broke the last dial, for its errno. */
  let lastError: Error | undefined;

  function dial(): http2.ClientHttp2Session {
    if (closed) throw new Error("the connection has been closed");
    if (current && !current.closed && !current.destroyed) return current;
    const session = http2.connect(options.url);
    let connected = false;
    let failure: string | undefined;
    session.once("connect", () => {
      connected = true;
      lastFailure = undefined;
      lastError = undefined;
    });
    // What broke the connection; 'close' follows, and says it.
    session.on("error", (error: Error) => {
      failure ??= describeConnectionError(error);
      if (current === session || !connected) {
        lastFailure = failure;
        lastError = error;
      }
    });
    session.once("goaway", () => forget(session));
    session.once("close", () => {
      forget(session);
      if (connected && !closed) options.onGone(failure);
    });
    return (current = session);
  }

  function forget(session: http2.ClientHttp2Session): void {
    if (current === session) current = undefined;
  }

  function connect(signal?: AbortSignal): Promise<void> {
    let session: http2.ClientHttp2Session;
    try {
      session = dial();
    } catch (thrown) {
      return Promise.reject(new ConnectError(`${options.peer} could not be reached: ${errorMessage(thrown)}`, Code.Unavailable));
    }
    if (!session.connecting) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const settle = (error?: ConnectError) => {
        session.off("connect", onConnect);
        session.off("close", onClose);
        signal?.removeEventListener("abort", onAbort);
        if (error) reject(error);
        else resolve();
      };
      const onConnect = () => settle();
      const onClose = () => settle(new ConnectError(lastFailure ?? "the connection closed", Code.Unavailable, undefined, undefined, lastError));
      const onAbort = () => settle(ConnectError.from(signal!.reason, Code.Canceled));
      session.once("connect", onConnect);
      session.once("close", onClose);
      if (signal?.aborted) onAbort();
      else signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  const call = (made: RawUnaryCall) => rawUnary(dial, made, options.peer);
  const passed = createPassedCalls({ url: options.url, peer: options.peer, overHttp2: call });
  return {
    connect,
    call,
    pass: passed.pass,
    failure: () => lastFailure,
    reset() {
      const session = current;
      current = undefined;
      session?.destroy();
      passed.reset();
    },
    close() {
      closed = true;
      current?.destroy();
      current = undefined;
      passed.reset();
    },
  };
}

// The failures of a dial that never reached the other end: it may yet be reached another way.
const unreached = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "ETIMEDOUT"]);

/** Whether `connect` failed before reaching the remote at all: refused, no such host, unreachable, or not in time (DEADLINE_EXCEEDED). */
export function couldNotConnect(thrown: unknown): boolean {
  const error = ConnectError.from(thrown);
  if (error.code === Code.DeadlineExceeded) return true;
  const errno = (error.cause as NodeJS.ErrnoException | undefined)?.code;
  return error.code === Code.Unavailable && errno !== undefined && unreached.has(errno);
}

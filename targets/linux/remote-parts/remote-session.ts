// The HTTP/2 connection svc-server holds to one remote part, plaintext (h2c) or TLS as its URL
// says, for the calls it makes itself: signing in, listing, and calls passed through as bytes.
// It is dialled when a call needs it and again once it is gone, and says when a connection it
// held goes away (a remote killed, a network lost) so the part can say so at once rather than at
// its next check. Certificates are checked against the system's authorities (and
// NODE_EXTRA_CA_CERTS), never waived.
import http2 from "node:http2";
import { rawUnary, type RawUnaryCall } from "../remote/index.js";

export interface RemoteSessionOptions {
  /** "http://host:port" or "https://host:port". */
  readonly url: string;
  /** Who is called, for messages: "remote pi". */
  readonly peer: string;
  /** Told once for each connection that goes away after it was made, with what ended it when that is known. */
  readonly onGone: (why: string | undefined) => void;
}

export interface RemoteSession {
  /** One unary call as bytes on the connection, dialling it first when there is none. */
  call(call: RawUnaryCall): Promise<Uint8Array>;
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

  function dial(): http2.ClientHttp2Session {
    if (closed) throw new Error("the connection has been closed");
    if (current && !current.closed && !current.destroyed) return current;
    const session = http2.connect(options.url);
    let connected = false;
    let failure: string | undefined;
    session.once("connect", () => {
      connected = true;
      lastFailure = undefined;
    });
    // What broke the connection; 'close' follows, and says it.
    session.on("error", (error: Error) => {
      failure ??= describe(error);
      if (current === session || !connected) lastFailure = failure;
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

  return {
    call: (call) => rawUnary(dial, call, options.peer),
    failure: () => lastFailure,
    reset() {
      const session = current;
      current = undefined;
      session?.destroy();
    },
    close() {
      closed = true;
      current?.destroy();
      current = undefined;
    },
  };
}

/** A connection error in words: "connection refused (ECONNREFUSED)". */
export function describe(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  const words: Record<string, string> = {
    ECONNREFUSED: "connection refused",
    ECONNRESET: "connection reset",
    EHOSTUNREACH: "host unreachable",
    ENETUNREACH: "network unreachable",
    ENOTFOUND: "no such host",
    EAI_AGAIN: "the host name could not be resolved now",
    ETIMEDOUT: "connection timed out",
  };
  if (code !== undefined && words[code] !== undefined) return `${words[code]} (${code})`;
  return error.message;
}

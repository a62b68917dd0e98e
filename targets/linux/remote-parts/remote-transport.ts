// The connect transport the typed stand-ins of a remote's resources call through (a sensor's
// GetReadings when a local resource reads its remote dependency): gRPC over HTTP/2 to the remote,
// or, while the part is connected over WebRTC, unary calls as bytes on that connection; every
// request naming its resource as the remote knows it, with the part's credentials, signing in
// again once when the remote refuses the token. One per remote part, closed with it.
import { ConnectError, type Interceptor, type Transport } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { Code } from "../../../core/index.js";
import { createRawCallTransport, type RawUnaryCall } from "../remote/index.js";
import type { RemoteCredentials } from "./remote-credentials.js";

export interface RemoteTransportOptions {
  /** "http://host:port" or "https://host:port". */
  readonly url: string;
  readonly credentials: RemoteCredentials;
  /** The name the remote knows a resource by, for the name it has here (`pi:left` -> `left`). */
  readonly remoteNameOf: (name: string) => string | undefined;
  /** The part's WebRTC connection: whether it is the way in use, and its calls. */
  readonly webRtc?: { active(): boolean; call(call: RawUnaryCall): Promise<Uint8Array> };
}

export interface RemoteTransport extends Transport {
  /** Ends its connection; later calls fail. */
  close(): void;
}

export function createRemoteTransport(options: RemoteTransportOptions): RemoteTransport {
  const { credentials } = options;
  const sessions = new Http2SessionManager(options.url);
  const withCredentials = (header: Headers) => {
    const headers = credentials.headers();
    if (headers) for (const [key, value] of Object.entries(headers)) header.set(key, value);
  };
  const asTheRemoteNamesIt: Interceptor = (next) => async (req) => {
    if (!req.stream) {
      const message = req.message as { name?: unknown };
      const there = typeof message.name === "string" ? options.remoteNameOf(message.name) : undefined;
      if (there !== undefined) message.name = there;
    }
    // Without credentials configured, signing in does nothing.
    if (credentials.headers() === undefined) await credentials.signIn();
    withCredentials(req.header);
    try {
      return await next(req);
    } catch (thrown) {
      if (req.stream || !(thrown instanceof ConnectError) || thrown.code !== Code.Unauthenticated) throw thrown;
      await credentials.signIn();
      if (credentials.headers() === undefined) throw thrown;
      withCredentials(req.header);
      return next(req);
    }
  };
  const grpc = createGrpcTransport({ baseUrl: options.url, sessionManager: sessions, interceptors: [asTheRemoteNamesIt] });
  const { webRtc } = options;
  const overWebRtc = webRtc && createRawCallTransport((call) => webRtc.call(call), { interceptors: [asTheRemoteNamesIt] });
  const way = () => (overWebRtc && webRtc.active() ? overWebRtc : grpc);
  let closed = false;
  const refuse = () => Promise.reject(new ConnectError("the connection to the remote has been closed", Code.Unavailable));
  return {
    unary: (...args) => (closed ? refuse() : way().unary(...args)),
    stream: (...args) => (closed ? refuse() : way().stream(...args)),
    close() {
      closed = true;
      sessions.abort(new ConnectError("the connection to the remote has been closed", Code.Canceled));
    },
  };
}

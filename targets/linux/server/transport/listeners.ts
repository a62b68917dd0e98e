// The two ways the API port accepts connections. Cleartext: one TCP listener that sniffs each
// connection's first bytes and hands it to an HTTP/2 (h2c) or an HTTP/1.1 server, neither of
// which listens itself; and, when the port offers TLS beside cleartext (a cloud-managed machine
// with svc-cloud's certificate), a connection opening with a TLS handshake to a secure server
// that does not listen either. TLS: one HTTP/2 secure server that falls back to HTTP/1.1 when
// ALPN (or its absence) says so. Either way every connection passes the gate (the caps on
// connections) first, is reported to the tracker, and is held to the time and size limits.
import http from "node:http";
import http2 from "node:http2";
import net from "node:net";
import type { TLSSocket } from "node:tls";
import type { ConnectionGate } from "./connection-gate.js";
import type { ConnectionTracker } from "./connection-tracker.js";
import { GrpcHttp2ServerResponse } from "../../../../node/rpc/grpc-message.js";
import type { HttpRequest, HttpResponse } from "../../../../node/rpc/http-types.js";
import { streamsFirst, type StreamTaker } from "../../../../node/rpc/streams-first.js";
import type { TransportLimits } from "./limits.js";
import { sniffPreface } from "./preface-sniffer.js";
import { watchSession } from "./session-timeouts.js";

/** PEM, as read from files or as svc-cloud answered it. */
export interface TlsCredentials {
  readonly cert: Buffer | string;
  readonly key: Buffer | string;
}

export interface ListenerParts {
  readonly handler: (req: HttpRequest, res: HttpResponse) => void;
  /** Offered every HTTP/2 request first. */
  readonly takeStream?: StreamTaker;
  readonly tracker: ConnectionTracker;
  readonly gate: ConnectionGate;
  readonly limits: TransportLimits;
}

// Socket options follow Node's own servers: HTTP/1.1 sockets get TCP_NODELAY (as http.Server
// sets it), HTTP/2 keeps Nagle (as http2 servers do). Measured with 32 streams, TCP_NODELAY on
// HTTP/2 cost about 10% more server CPU per call, and one caller alone saw no Nagle stalls.

// How often Node looks for HTTP/1.1 requests past their headers or request timeout (its default,
// 30 s, would let a 10 s timeout run to 40).
const timeoutCheckMs = 1_000;

/** The secure server a cleartext listener hands TLS connections to, while it offers TLS. */
export type TlsAlongside = () => net.Server | undefined;

export function createCleartextListener(parts: ListenerParts, tlsAlongside: TlsAlongside = () => undefined): net.Server {
  const { handler, tracker, gate, limits } = parts;
  const http1 = http.createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      maxHeaderSize: limits.maxHeaderBytes,
      connectionsCheckingInterval: timeoutCheckMs,
    },
    (req, res) => {
      tracker.http1Request(req, res);
      handler(req, res);
    },
  );
  // The handler decides when a body is wanted, so "100 Continue" is its to send.
  http1.on("checkContinue", (req, res) => {
    tracker.http1Request(req, res);
    handler(req, res);
  });
  // Node tracks requests for headersTimeout and requestTimeout only from 'listening', and this
  // server is handed sockets rather than listening: without this its timeouts never run.
  http1.emit("listening");
  const h2c = http2.createServer(http2Options(limits), handler);
  h2c.on("checkContinue", handler);
  streamsFirst(h2c, parts.takeStream);
  h2c.on("session", (session) => {
    tracker.http2(session);
    watchSession(session, limits);
  });

  const server = net.createServer((socket) => {
    if (!gate.admit(socket)) return;
    tracker.accepted(socket);
    tracker.undecided(socket);
    sniffPreface(socket, limits.firstBytesTimeoutMs, (protocol) => {
      if (protocol === "tls") {
        const secure = tlsAlongside();
        // A port that offers no TLS closes the connection: the client's handshake fails at once.
        if (secure === undefined) return void socket.destroy();
        tracker.decided(socket);
        secure.emit("connection", socket);
        return;
      }
      if (protocol === "h2") {
        tracker.decided(socket);
        h2c.emit("connection", socket);
        return;
      }
      tracker.http1(socket);
      socket.setNoDelay(true);
      http1.emit("connection", socket);
      // The HTTP/1.1 parser reads the socket natively; resuming lets the bytes put back reach it.
      socket.resume();
    });
  });
  // Stops the timeout checks started above.
  server.once("close", () => http1.close());
  return server;
}

export function createTlsListener(parts: ListenerParts, credentials: TlsCredentials): net.Server {
  const server = createSecureServer(parts, credentials);
  // Ahead of the TLS server's own listener, so a connection over the caps is closed before its handshake.
  server.prependListener("connection", (socket: net.Socket) => {
    if (parts.gate.admit(socket)) parts.tracker.accepted(socket);
  });
  return server;
}

/**
 * The HTTP/2 secure server (HTTP/1.1 by ALPN) of either listener; its connections are admitted
 * by whoever hands them to it. `setSecureContext` changes the certificate for new connections.
 */
export function createSecureServer(parts: ListenerParts, credentials: TlsCredentials): http2.Http2SecureServer {
  const { handler, tracker, limits } = parts;
  // A handshake is bounded like a request's headers: a client that opens one and stalls is closed.
  const options = { allowHTTP1: true, ...credentials, handshakeTimeout: limits.headersTimeoutMs, ...http2Options(limits) };
  const onRequest = (req: HttpRequest, res: HttpResponse) => {
    // With allowHTTP1, HTTP/1.1 requests arrive here too, as Node's HTTP/1.1 request objects.
    if (req.httpVersionMajor === 1) tracker.http1Request(req as http.IncomingMessage, res as http.ServerResponse);
    handler(req, res);
  };
  const server = http2.createSecureServer(options, onRequest);
  server.on("checkContinue", onRequest);
  streamsFirst(server, parts.takeStream);
  // The HTTP/1.1 side reads these from the server itself (this one listens, so they run).
  Object.assign(server, {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    maxHeaderSize: limits.maxHeaderBytes,
    connectionsCheckingInterval: timeoutCheckMs,
  });
  server.on("secureConnection", (socket: TLSSocket) => {
    if (socket.alpnProtocol === "h2") return;
    socket.setNoDelay(true);
    tracker.http1(socket);
  });
  server.on("session", (session) => {
    tracker.http2(session);
    watchSession(session, limits);
  });
  return server;
}

function http2Options(limits: TransportLimits) {
  return {
    Http2ServerResponse: GrpcHttp2ServerResponse,
    settings: { maxConcurrentStreams: limits.maxConcurrentStreams, maxHeaderListSize: limits.maxHeaderBytes },
  };
}

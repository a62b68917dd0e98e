// The two ways the API port accepts connections. Cleartext: one TCP listener that sniffs each
// connection's first bytes and hands it to an HTTP/2 (h2c) or an HTTP/1.1 server, neither of
// which listens itself. TLS: one HTTP/2 secure server that falls back to HTTP/1.1 when ALPN (or
// its absence) says so. Either way every connection is reported to the tracker.
import http from "node:http";
import http2 from "node:http2";
import net from "node:net";
import type { TLSSocket } from "node:tls";
import type { ConnectionTracker } from "./connection-tracker.js";
import { GrpcHttp2ServerResponse } from "./grpc-message.js";
import type { HttpRequest, HttpResponse } from "./http-types.js";
import { sniffPreface } from "./preface-sniffer.js";

export interface TlsCredentials {
  readonly cert: Buffer;
  readonly key: Buffer;
}

// Socket options follow Node's own servers: HTTP/1.1 sockets get TCP_NODELAY (as http.Server
// sets it), HTTP/2 keeps Nagle (as http2 servers do). Measured with 32 streams, TCP_NODELAY on
// HTTP/2 cost about 10% more server CPU per call, and one caller alone saw no Nagle stalls.

// Long enough for any client that means to talk; a connection silent for this long is dropped
// before a server is chosen for it.
const firstBytesTimeoutMs = 30_000;

export function createCleartextListener(
  handler: (req: HttpRequest, res: HttpResponse) => void,
  tracker: ConnectionTracker,
): net.Server {
  const http1 = http.createServer((req, res) => {
    tracker.http1Request(req, res);
    handler(req, res);
  });
  const h2c = http2.createServer({ Http2ServerResponse: GrpcHttp2ServerResponse }, handler);
  h2c.on("session", (session) => tracker.http2(session));

  return net.createServer((socket) => {
    tracker.accepted(socket);
    tracker.undecided(socket);
    sniffPreface(socket, firstBytesTimeoutMs, (protocol) => {
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
}

export function createTlsListener(
  handler: (req: HttpRequest, res: HttpResponse) => void,
  tracker: ConnectionTracker,
  credentials: TlsCredentials,
): net.Server {
  const options = { allowHTTP1: true, ...credentials, Http2ServerResponse: GrpcHttp2ServerResponse };
  const server = http2.createSecureServer(options, (req, res) => {
    // With allowHTTP1, HTTP/1.1 requests arrive here too, as Node's HTTP/1.1 request objects.
    if (req.httpVersionMajor === 1) tracker.http1Request(req, res);
    handler(req, res);
  });
  server.on("connection", (socket: net.Socket) => tracker.accepted(socket));
  server.on("secureConnection", (socket: TLSSocket) => {
    if (socket.alpnProtocol === "h2") return;
    socket.setNoDelay(true);
    tracker.http1(socket);
  });
  server.on("session", (session) => tracker.http2(session));
  return server;
}

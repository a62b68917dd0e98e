// svc-cloud's one port. With TLS, ALPN tells HTTP/2 (machines, gRPC) from HTTP/1.1 (browsers and
// the official SDK's gRPC-web). Without TLS the first bytes tell them apart: an HTTP/2 client opens
// with a fixed preface no HTTP/1 request line shares, so the connection is handed to the right
// server with the bytes it has already sent put back.
import { createServer as createHttp1Server, type IncomingMessage, type ServerResponse } from "node:http";
import { constants as h2Constants, createSecureServer, createServer as createHttp2Server, type Http2Server, type Http2ServerRequest, type Http2ServerResponse, type ServerHttp2Session } from "node:http2";
import { createServer as createNetServer, type AddressInfo, type Server, type Socket } from "node:net";
import { streamsFirst, type StreamTaker } from "../../../node/rpc/streams-first.js";

export type RequestHandler = (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse) => void;

export interface ListenOptions {
  host: string;
  port: number;
  tls?: { cert: Buffer; key: Buffer };
  handler: RequestHandler;
  /** Offered every HTTP/2 request first, as its bare stream (a machine's gRPC call); false leaves it to `handler`. */
  takeStream?: StreamTaker;
  /** How long a request's body may send nothing before it is let go; FIRST_BYTES_MS by default. */
  bodyStallMs?: number;
  /**
   * HTTP/2 request paths whose body the client sends only when it has something to say (a
   * machine's signaling Answer stream), each with how long its stream may carry nothing either
   * way before it is let go: svc-cloud's own heartbeats on it are traffic too.
   */
  quietBodies?: ReadonlyMap<string, number>;
}

export interface Listening {
  readonly host: string;
  readonly port: number;
  close(): Promise<void>;
}

const PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1");
/** How long a connection may take to send its first bytes, and a request its headers. */
const FIRST_BYTES_MS = 10_000;
/** How long an HTTP/2 connection may stay open with no stream open on it. */
const IDLE_SESSION_MS = 30_000;
const h2Settings = { maxConcurrentStreams: 256 };

export async function listen(options: ListenOptions): Promise<Listening> {
  const sockets = new Set<Socket>();
  const stallMs = options.bodyStallMs ?? FIRST_BYTES_MS;
  const takeStream = options.takeStream && streamDeadlines(options.takeStream, stallMs);
  const handler = wellFormed(bodyDeadlines(options.handler, stallMs, options.quietBodies ?? new Map()));
  const server = options.tls === undefined ? cleartextServer(handler, takeStream) : tlsServer(options, handler, takeStream);
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  return {
    host: options.host,
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

function tlsServer(options: ListenOptions, handler: RequestHandler, takeStream: StreamTaker | undefined): Server {
  const server = createSecureServer({ ...options.tls!, allowHTTP1: true, settings: h2Settings }, handler);
  streamsFirst(server, takeStream);
  server.on("session", closeWhenIdle);
  return server as unknown as Server;
}

/** A target that is a path ("/a/b", not "//host"): every URL parser takes it against a base, so it needs no parse here (every RPC's is one). */
function isPathOnly(url: string | undefined): boolean {
  return url !== undefined && url.charCodeAt(0) === 47 && url.charCodeAt(1) !== 47 && url.charCodeAt(1) !== 92;
}

/**
 * A request target no URL parser takes (`GET http://a:99999/`) is answered 400 here, before any
 * handler parses it: a parser's throw in a request handler would end the process.
 */
function wellFormed(handler: RequestHandler): RequestHandler {
  return (req, res) => {
    if (isPathOnly(req.url) || URL.canParse(req.url ?? "/", "http://svc-cloud")) return handler(req, res);
    const text = JSON.stringify({ error: "the request target is not a URL" });
    (res as ServerResponse).writeHead(400, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
    res.end(text);
  };
}

/**
 * A request's body must keep arriving: a request that receives nothing for `stallMs` before
 * its body has ended is let go (a stalled upload, or headers sent with no body). Over HTTP/2 its
 * stream is cancelled; over HTTP/1.1, where nothing but the socket carries it, the connection is
 * closed. Once the body is in, the answer may take as long as it needs (a tail, a watch). A
 * stream whose body stays open on purpose (`quiet`) is let go only when nothing passes either way
 * for its own, longer time: a write counts as traffic on an HTTP/2 stream.
 */
function bodyDeadlines(handler: RequestHandler, stallMs: number, quiet: ReadonlyMap<string, number>): RequestHandler {
  return (req, res) => {
    if ("stream" in req) {
      // A request whose headers ended it (a GET) has no body to wait for.
      if (!req.stream.endAfterHeaders) {
        const stream = req.stream;
        const ms = quiet.get((req.url ?? "").split("?")[0]!) ?? stallMs;
        stream.setTimeout(ms, () => stream.close(h2Constants.NGHTTP2_CANCEL));
        req.once("end", () => stream.setTimeout(0));
      }
    } else {
      watchHttp1Body(req, stallMs);
    }
    handler(req, res);
  };
}

/** bodyDeadlines for a stream taken bare: only a request whose target is a path is offered. */
function streamDeadlines(take: StreamTaker, stallMs: number): StreamTaker {
  return (stream, headers, rawHeaders) => {
    if (!isPathOnly(headers[":path"]) || !take(stream, headers, rawHeaders)) return false;
    if (!stream.endAfterHeaders) {
      stream.setTimeout(stallMs, () => stream.close(h2Constants.NGHTTP2_CANCEL));
      stream.once("end", () => stream.setTimeout(0));
    }
    return true;
  };
}

/**
 * HTTP/1.1: the socket must have read more since the last look, every `stallMs`, until the
 * request is complete (so a stalled body is let go within twice that). It counts the socket's bytes rather than listening for the body's data, so
 * the body stays paused until the handler reads it.
 */
function watchHttp1Body(req: IncomingMessage, stallMs: number): void {
  const socket = req.socket;
  let seen = socket.bytesRead;
  const stop = () => {
    clearInterval(timer);
    req.off("close", stop);
    socket.off("close", stop);
  };
  const timer = setInterval(() => {
    if (req.complete || socket.destroyed) return stop();
    if (socket.bytesRead === seen) {
      stop();
      return void socket.destroy();
    }
    seen = socket.bytesRead;
  }, stallMs);
  // A watch never holds the process up: it ends with the request or its connection, whichever
  // Node tells first (a request refused unread may never say it closed).
  timer.unref();
  req.once("close", stop);
  socket.once("close", stop);
}

/** Closes an HTTP/2 connection that has had no stream open for IDLE_SESSION_MS. */
function closeWhenIdle(session: ServerHttp2Session): void {
  let open = 0;
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => session.close(), IDLE_SESSION_MS);
  };
  arm();
  session.on("stream", (stream) => {
    open += 1;
    clearTimeout(timer);
    stream.once("close", () => {
      open -= 1;
      if (open === 0 && !session.closed) arm();
    });
  });
  session.once("close", () => clearTimeout(timer));
}

/**
 * An HTTP/1.1 connection must send each request's headers within FIRST_BYTES_MS of the previous
 * response (or of its start). Node's own headersTimeout is checked only by a server that listens
 * itself, and this one is handed its connections, so the deadline is kept here.
 */
function headersDeadlines(h1: ReturnType<typeof createHttp1Server>) {
  const timers = new WeakMap<Socket, NodeJS.Timeout>();
  const arm = (socket: Socket) => {
    clearTimeout(timers.get(socket));
    timers.set(socket, setTimeout(() => socket.destroy(), FIRST_BYTES_MS));
  };
  h1.on("request", (req: IncomingMessage, res: ServerResponse) => {
    // The socket is taken now: by the time an answer sent before the whole request was read has
    // finished, the request may have let go of it.
    const socket = req.socket;
    clearTimeout(timers.get(socket));
    res.once("finish", () => !socket.destroyed && arm(socket));
  });
  return (socket: Socket) => {
    arm(socket);
    socket.once("close", () => clearTimeout(timers.get(socket)));
  };
}

function cleartextServer(handler: RequestHandler, takeStream: StreamTaker | undefined): Server {
  const h2: Http2Server = createHttp2Server({ settings: h2Settings }, handler);
  streamsFirst(h2, takeStream);
  h2.on("session", closeWhenIdle);
  const h1 = createHttp1Server(handler);
  const awaitHeaders = headersDeadlines(h1);
  return createNetServer((socket) => {
    let seen = Buffer.alloc(0);
    const timer = setTimeout(() => socket.destroy(), FIRST_BYTES_MS);
    const onData = (chunk: Buffer) => {
      seen = Buffer.concat([seen, chunk]);
      const n = Math.min(seen.length, PREFACE.length);
      const isH2 = seen.subarray(0, n).equals(PREFACE.subarray(0, n));
      if (isH2 && seen.length < PREFACE.length) return;
      socket.off("data", onData);
      clearTimeout(timer);
      socket.pause();
      socket.unshift(seen);
      if (isH2) {
        h2.emit("connection", socket);
        return;
      }
      awaitHeaders(socket);
      h1.emit("connection", socket);
      // The HTTP/1.1 parser reads the socket natively; resuming lets the bytes put back reach it.
      socket.resume();
    };
    socket.on("data", onData);
    socket.once("close", () => clearTimeout(timer));
    socket.on("error", () => socket.destroy());
  });
}

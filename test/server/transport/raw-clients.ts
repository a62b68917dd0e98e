// Clients that speak the wire directly, for what well-behaved clients never send: bodies larger
// than they declare or endless, frames with a wrong length, headers that never finish. Over
// HTTP/1.1 a plain TCP socket; over HTTP/2 Node's own http2 client. Every exchange records what
// the server answered and whether it closed, and how much of the body went out before it did.
import http2 from "node:http2";
import net from "node:net";

/** One gRPC length-prefixed message: `flags`, then a 4-byte length (which may lie), then `data`. */
export function grpcFrame(data: Uint8Array, options: { flags?: number; declaredLength?: number } = {}): Buffer {
  const frame = Buffer.alloc(5 + data.length);
  frame[0] = options.flags ?? 0;
  frame.writeUInt32BE(options.declaredLength ?? data.length, 1);
  frame.set(data, 5);
  return frame;
}

export interface RawExchange {
  /** Everything the server sent so far, as latin1 text. */
  text(): string;
  /** Body bytes written so far. */
  sent(): number;
  closed(): boolean;
  close(): void;
}

export interface Http1Options {
  /** Where the connection comes from (another loopback address counts as another client). */
  localAddress?: string;
  /** Body chunks, written as the socket takes them; stops when the server closes. */
  body?: Iterable<Uint8Array>;
}

/** Sends `head` (request line and headers, "\r\n\r\n" included), then the body, on a plain socket. */
export function http1Exchange(port: number, head: string, options: Http1Options = {}): RawExchange {
  const socket = net.connect({ port, host: "127.0.0.1", localAddress: options.localAddress });
  let received = "";
  let sent = 0;
  let closed = false;
  socket.on("data", (data) => (received += data.toString("latin1")));
  socket.on("error", () => {});
  socket.on("close", () => (closed = true));
  socket.write(head);
  const chunks = options.body?.[Symbol.iterator]();
  const pump = () => {
    if (!chunks) return;
    for (let next = chunks.next(); !next.done; next = chunks.next()) {
      if (closed || socket.destroyed) return;
      sent += next.value.length;
      if (!socket.write(next.value)) {
        socket.once("drain", pump);
        return;
      }
    }
  };
  pump();
  return { text: () => received, sent: () => sent, closed: () => closed, close: () => socket.destroy() };
}

export interface Http2Exchange {
  /** Response headers, once they came. */
  headers(): http2.IncomingHttpHeaders | undefined;
  trailers(): http2.IncomingHttpHeaders | undefined;
  /** The grpc-status of the answer, from the trailers or a trailers-only answer. */
  status(): string | undefined;
  message(): string | undefined;
  sent(): number;
  /** The stream is over (answered, reset, or the session went). */
  closed(): boolean;
  rstCode(): number | undefined;
  close(): void;
}

/** One HTTP/2 request on its own session; `body` is written as the stream takes it and never ended when `endless`. */
export function http2Exchange(
  port: number,
  headers: http2.OutgoingHttpHeaders,
  body: Iterable<Uint8Array>,
  options: { localAddress?: string; endless?: boolean } = {},
): Http2Exchange {
  // Node hands localAddress on to the socket it opens; the http2 types do not list it.
  const session = http2.connect(`http://127.0.0.1:${port}`, { localAddress: options.localAddress } as http2.ClientSessionOptions);
  session.on("error", () => {});
  const stream = session.request({ ":method": "POST", te: "trailers", ...headers });
  let responseHeaders: http2.IncomingHttpHeaders | undefined;
  let trailers: http2.IncomingHttpHeaders | undefined;
  let sent = 0;
  let closed = false;
  stream.on("response", (h) => (responseHeaders = h));
  stream.on("trailers", (t) => (trailers = t));
  stream.on("error", () => {});
  stream.on("close", () => {
    closed = true;
    session.close();
  });
  stream.resume();
  const chunks = body[Symbol.iterator]();
  const pump = () => {
    for (let next = chunks.next(); !next.done; next = chunks.next()) {
      if (closed) return;
      sent += next.value.length;
      if (!stream.write(next.value)) {
        stream.once("drain", pump);
        return;
      }
    }
    if (!options.endless) stream.end();
  };
  pump();
  const field = (name: string) => {
    const value = trailers?.[name] ?? responseHeaders?.[name];
    return typeof value === "string" ? value : undefined;
  };
  return {
    headers: () => responseHeaders,
    trailers: () => trailers,
    status: () => field("grpc-status"),
    message: () => {
      const message = field("grpc-message");
      return message === undefined ? undefined : decodeURIComponent(message);
    },
    sent: () => sent,
    closed: () => closed,
    rstCode: () => (closed ? stream.rstCode : undefined),
    close: () => session.destroy(),
  };
}

/** `count` chunks of `size` bytes (the same buffer each time: nothing large is ever held). */
export function* chunks(size: number, count: number): Generator<Uint8Array> {
  const chunk = new Uint8Array(size);
  for (let i = 0; i < count; i++) yield chunk;
}

/** `first`, then `rest`. */
export function* concat(first: Iterable<Uint8Array>, ...rest: Iterable<Uint8Array>[]): Generator<Uint8Array> {
  yield* first;
  for (const more of rest) yield* more;
}

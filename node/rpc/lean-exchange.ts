// The HTTP side of one call on the lean path: the request's headers, whether the client is still
// there, and the answer written in the call's protocol. Two kinds: over Node's request and
// response objects (HTTP/1.1, and HTTP/2 requests that went through Node's compatibility layer),
// and over a bare HTTP/2 stream, for gRPC calls taken before that layer makes its two objects and
// their streams (a third of what a small call cost). Either way the answer is the same bytes.
import type { IncomingHttpHeaders, OutgoingHttpHeaders, ServerHttp2Stream, ServerStreamResponseOptions } from "node:http2";
import type { Writable } from "node:stream";
import { withGrpcMessage } from "./grpc-message.js";
import type { HttpResponse } from "./http-types.js";
import { answerHeader, envelope, grpcWebBody, grpcWebTrailer, trailerRecord, type LeanProtocol, type Outcome } from "./lean-answer.js";

export interface LeanExchange {
  readonly protocol: LeanProtocol;
  readonly headers: IncomingHttpHeaders;
  /** True once the answer's headers are written. */
  readonly started: boolean;
  /** The client has gone: its stream (HTTP/2) or its connection (HTTP/1.1) is closed. */
  gone(): boolean;
  /** `listener` hears if the client goes before the answer is done; until release(). */
  watch(listener: () => void): void;
  release(listener: () => void): void;
  /** The whole answer at once: headers, its message if it has one, and trailers. */
  answer(outcome: Outcome): void;
  /** A stream's headers, before its first message. */
  start(header: Headers): void;
  /** One message of a stream; false when the client should be let drain first. */
  send(message: Uint8Array): boolean;
  /** Resolves when the client can take more, or has gone. */
  drained(): Promise<void>;
  /** Ends a started answer with its trailers. */
  finish(trailer: Headers): void;
}

/** A call on Node's request and response objects. */
export class ResponseExchange implements LeanExchange {
  constructor(
    readonly protocol: LeanProtocol,
    readonly headers: IncomingHttpHeaders,
    private readonly res: HttpResponse,
  ) {}

  get started(): boolean {
    return this.res.headersSent;
  }

  gone(): boolean {
    const res = this.res;
    return "stream" in res ? res.stream.destroyed : res.destroyed;
  }

  watch(listener: () => void): void {
    this.res.on("close", listener);
  }

  release(listener: () => void): void {
    this.res.off("close", listener);
  }

  answer(outcome: Outcome): void {
    const res = this.res;
    if (res.headersSent || res.writableEnded) return;
    res.writeHead(200, answerHeader(outcome.header, this.protocol));
    if (this.protocol === "grpc-web") return void res.end(grpcWebBody(outcome));
    res.addTrailers(trailerRecord(outcome.trailer));
    if (outcome.message) res.end(envelope(0, outcome.message));
    else res.end();
  }

  start(header: Headers): void {
    this.res.writeHead(200, answerHeader(header, this.protocol));
  }

  send(message: Uint8Array): boolean {
    return (this.res as Writable).write(envelope(0, message));
  }

  drained(): Promise<void> {
    return drainedOf(this.res, this);
  }

  finish(trailer: Headers): void {
    const res = this.res;
    if (this.gone() || res.writableEnded) return;
    if (this.protocol === "grpc-web") return void res.end(grpcWebTrailer(trailer));
    res.addTrailers(trailerRecord(trailer));
    res.end();
  }
}

/** A gRPC call on a bare HTTP/2 stream. */
export class StreamExchange implements LeanExchange {
  readonly protocol = "grpc";
  private trailers: OutgoingHttpHeaders | undefined;

  constructor(
    readonly headers: IncomingHttpHeaders,
    private readonly stream: ServerHttp2Stream,
  ) {}

  get started(): boolean {
    return this.stream.headersSent;
  }

  gone(): boolean {
    return this.stream.destroyed;
  }

  watch(listener: () => void): void {
    this.stream.on("close", listener);
  }

  release(listener: () => void): void {
    this.stream.off("close", listener);
  }

  answer(outcome: Outcome): void {
    const stream = this.stream;
    if (stream.headersSent || stream.destroyed) return;
    this.respond(outcome.header);
    this.trailers = withGrpcMessage(trailerRecord(outcome.trailer));
    if (outcome.message) stream.end(envelope(0, outcome.message));
    else stream.end();
  }

  start(header: Headers): void {
    this.respond(header);
  }

  send(message: Uint8Array): boolean {
    return this.stream.write(envelope(0, message));
  }

  drained(): Promise<void> {
    return drainedOf(this.stream, this);
  }

  finish(trailer: Headers): void {
    const stream = this.stream;
    if (stream.destroyed || stream.writableEnded) return;
    this.trailers = withGrpcMessage(trailerRecord(trailer));
    stream.end();
  }

  // Node asks for the trailers once the last data is written ('wantTrailers'). No Date header: a
  // gRPC client has no use for it, and it is made, checked and compressed for every answer
  // (respond() reads `sendDate` as the compatibility layer's response does; its types omit it).
  private respond(header: Headers): void {
    const head: OutgoingHttpHeaders = answerHeader(header, "grpc");
    head[":status"] = 200;
    this.stream.once("wantTrailers", () => this.stream.sendTrailers(this.trailers ?? { "grpc-status": "0" }));
    this.stream.respond(head, { waitForTrailers: true, sendDate: false } as ServerStreamResponseOptions);
  }
}

function drainedOf(target: Pick<Writable, "on" | "off">, exchange: LeanExchange): Promise<void> {
  return new Promise((resolve) => {
    if (exchange.gone()) return resolve();
    const done = () => {
      target.off("drain", done);
      target.off("close", done);
      resolve();
    };
    target.on("drain", done);
    target.on("close", done);
  });
}

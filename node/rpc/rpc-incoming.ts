// A request for an RPC method as the port's RPC handler takes it: its headers, its connection, its
// body, and how it is answered. Most requests come as Node's request and response objects; an
// HTTP/2 gRPC call on the lean path comes as its bare stream, taken before Node's compatibility
// layer makes those two objects (and their streams) for it, and they are made only if something
// out of the ordinary needs them (a refusal, connect's general way).
import http2, { type IncomingHttpHeaders, type ServerHttp2Stream } from "node:http2";
import type { Readable } from "node:stream";
import type { UniversalHandler } from "@connectrpc/connect/protocol";
import { connectOverNode, type CallErrorListener, type ConnectCall } from "./connect-call.js";
import { continueIfExpected } from "./request-body.js";
import { GrpcHttp2ServerResponse } from "./grpc-message.js";
import type { HttpRequest, HttpResponse } from "./http-types.js";
import type { LeanProtocol } from "./lean-answer.js";
import { ResponseExchange, StreamExchange, type LeanExchange } from "./lean-exchange.js";
import { answerRefusal, closeAfterAnswer, closeStreamAfterAnswer, type RpcRefusal } from "./rpc-refusal.js";

export interface RpcIncoming {
  readonly headers: IncomingHttpHeaders;
  /** The HTTP method. */
  readonly method: string | undefined;
  readonly http2: boolean;
  /** What the request came on, the same object for every request of one connection (an HTTP/2 session, or the socket). */
  readonly connection: object;
  /** The connection's socket, as far as a peer is read from it. */
  readonly socket: { readonly remoteAddress?: string; readonly encrypted?: boolean } | undefined;
  /** The body, read through its 'data', 'end' and 'error' events. */
  readonly body: Readable;
  /** The lean path's side of the exchange. */
  exchange(protocol: LeanProtocol): LeanExchange;
  /** Answers with `refusal` in the caller's protocol, without running the call. */
  refuse(refusal: RpcRefusal): void;
  /** Runs the call connect's general way on `call.body`. */
  connect(method: UniversalHandler, path: string, onError: CallErrorListener, call: ConnectCall): void;
  /** Tells a client waiting for "100 Continue" to send its body. */
  expectContinue(): void;
  /** `listener` hears when the answer's side closes. */
  onClose(listener: () => void): void;
  /** The rest of the body is not wanted: once answered, the connection (HTTP/1.1) or stream (HTTP/2) is closed. */
  closeAfterAnswer(): void;
}

/** A request Node's request and response objects answer (made on demand by `compat`). */
abstract class NodeIncoming {
  /** Node's request and response objects for the request. */
  abstract compat(): { req: HttpRequest; res: HttpResponse };

  refuse(refusal: RpcRefusal): void {
    const { req, res } = this.compat();
    answerRefusal(req, res, refusal);
  }

  connect(method: UniversalHandler, path: string, onError: CallErrorListener, call: ConnectCall): void {
    const { req, res } = this.compat();
    connectOverNode(method, req, res, path, onError, call);
  }

  expectContinue(): void {
    const { req, res } = this.compat();
    continueIfExpected(req, res);
  }
}

/** A request as Node's request and response objects. */
export class ResponseIncoming extends NodeIncoming implements RpcIncoming {
  constructor(
    private readonly req: HttpRequest,
    private readonly res: HttpResponse,
  ) {
    super();
  }

  get headers(): IncomingHttpHeaders {
    return this.req.headers;
  }

  get method(): string | undefined {
    return this.req.method;
  }

  get http2(): boolean {
    return "stream" in this.req;
  }

  get connection(): object {
    const req = this.req;
    return "stream" in req ? (req.stream.session ?? req.stream) : req.socket;
  }

  // For HTTP/2 `socket` is a proxy to the session's socket, which reads through to it.
  get socket(): RpcIncoming["socket"] {
    return this.req.socket as RpcIncoming["socket"];
  }

  get body(): Readable {
    return this.req;
  }

  exchange(protocol: LeanProtocol): LeanExchange {
    return new ResponseExchange(protocol, this.req.headers, this.res);
  }

  compat(): { req: HttpRequest; res: HttpResponse } {
    return { req: this.req, res: this.res };
  }

  onClose(listener: () => void): void {
    this.res.once("close", listener);
  }

  closeAfterAnswer(): void {
    closeAfterAnswer(this.res);
  }
}

/** An HTTP/2 request as its bare stream. */
export class StreamIncoming extends NodeIncoming implements RpcIncoming {
  readonly http2 = true;
  private made: { req: HttpRequest; res: HttpResponse } | undefined;

  constructor(
    private readonly stream: ServerHttp2Stream,
    readonly headers: IncomingHttpHeaders,
    private readonly rawHeaders: string[],
  ) {
    super();
    // A stream the client resets says so with an 'error' (then 'close', which ends the call):
    // unheard, it would end the process.
    stream.on("error", ignoreError);
  }

  get method(): string | undefined {
    return this.headers[":method"] as string | undefined;
  }

  get connection(): object {
    return this.stream.session ?? this.stream;
  }

  get socket(): RpcIncoming["socket"] {
    return this.stream.session?.socket as RpcIncoming["socket"];
  }

  get body(): Readable {
    return this.stream;
  }

  exchange(): LeanExchange {
    return new StreamExchange(this.headers, this.stream);
  }

  // As Node's compatibility layer makes them for a stream, with svc's response class.
  compat(): { req: HttpRequest; res: HttpResponse } {
    if (!this.made) {
      const req = new http2.Http2ServerRequest(this.stream, this.headers, {}, this.rawHeaders);
      this.made = { req, res: new GrpcHttp2ServerResponse(this.stream) };
    }
    return this.made;
  }

  onClose(listener: () => void): void {
    this.stream.once("close", listener);
  }

  closeAfterAnswer(): void {
    closeStreamAfterAnswer(this.stream);
  }
}

function ignoreError(): void {}

// The short way for the calls a robot makes most: unary calls and server streams in binary gRPC
// over HTTP/2 and binary gRPC-web, uncompressed. connect's protocol handlers are general (every
// protocol, every method kind, compression, JSON), and pay per call for that generality:
// async-iterable pipelines, WHATWG Headers and URL objects, several AbortControllers. Here a call
// is its body gathered under the port's limits, one envelope, protobuf-es decode, the SAME
// interceptors (bounds, auth, operations, telemetry) around the SAME implementation the router
// holds, encode, and the answer written: for a unary call one write of headers, message and
// trailers; for a stream the headers with its first message, each message as it comes (waiting
// while the client is slow to read), then the trailers. Errors are written by connect's own
// trailer code, so a client sees the same statuses, messages and details either way. The HTTP
// side of a call is its exchange (lean-exchange.ts): Node's request and response, or a bare
// HTTP/2 stream. What a call holds is made once per call as plain fields and shared methods, not
// closures, since on a small call the allocation is most of the cost.
//
// Whatever is out of the ordinary goes the general way with the body already read: a body that
// is not exactly one well-formed envelope, a message that does not decode, compression, JSON,
// gRPC-web's text form. connect then answers it exactly as it always did.
import {
  create,
  fromBinary,
  isMessage,
  toBinary,
  type DescMessage,
  type DescMethodServerStreaming,
  type DescMethodUnary,
  type DescService,
} from "@bufbuild/protobuf";
import {
  ConnectError,
  createServiceImplSpec,
  type ContextValues,
  type HandlerContext,
  type Interceptor,
  type ServiceImpl,
  type StreamRequest,
  type StreamResponse,
  type UnaryRequest,
  type UnaryResponse,
} from "@connectrpc/connect";
import { Code } from "../../core/index.js";
import type { IncomingHttpHeaders } from "node:http2";
import type { CallDeadline } from "./call-deadline.js";
import { callControlKey, createCallControl, type CallControl, type TransportCallControl } from "./call-control.js";
import { encodingOf } from "./encoded-answer.js";
import { errorAnswer, responseContentType, type LeanProtocol, type Outcome } from "./lean-answer.js";
import type { LeanExchange } from "./lean-exchange.js";
import { recordHeaders } from "./record-headers.js";
import { forwarded, type Forward, type ForwardOf, type LeanResponse } from "./forwarded-response.js";

export type { LeanProtocol } from "./lean-answer.js";

export interface LeanCallsOptions {
  /** The same interceptors connect's router runs, outermost first. */
  readonly interceptors: readonly Interceptor[];
  readonly shutdownSignal: AbortSignal;
  /** Largest response message (the request side is held by the caller's limits). */
  readonly maxMessageBytes: number;
  /** Told when an answer could not be written. */
  readonly onError: (error: unknown, path: string) => void;
  /** For a unary request whose resource another process serves: the way its bytes pass through. */
  readonly forwardOf?: ForwardOf;
  /**
   * Requests read with a message of the server's own that has the same wire (by method path): the
   * implementation is given that message here, the method's own on connect's general way, and
   * takes either.
   */
  readonly wireInputs?: ReadonlyMap<string, DescMessage>;
}

export type { Forward, ForwardOf } from "./forwarded-response.js";

/** What a call on the lean path is given by the port. */
export interface LeanCall {
  readonly path: string;
  readonly values: ContextValues;
  /** The call's deadline, when it has one. */
  readonly deadline?: CallDeadline;
  /** The general way, for a call this path does not take after all: given the body already read. */
  readonly fallBack: (body: Buffer) => void;
}

export interface LeanCalls {
  /** Records a service as the router registers it; its unary methods and server streams get the short way. */
  addService(service: DescService, impl: Partial<ServiceImpl<DescService>>): void;
  /** The protocol of a request (its method, headers, and whether it came over HTTP/2) this path takes for `path`, or undefined. */
  accepts(method: string | undefined, path: string, headers: IncomingHttpHeaders, http2: boolean): LeanProtocol | undefined;
  /** Runs the call (accepts() said yes) on its body, read whole under the port's limits. */
  serve(exchange: LeanExchange, call: LeanCall, body: Buffer): void;
}

type LeanDescMethod = DescMethodUnary | DescMethodServerStreaming;
type AnyRequest = UnaryRequest | StreamRequest;
type AnyResponse = UnaryResponse | StreamResponse;

interface LeanMethod {
  readonly method: LeanDescMethod;
  readonly service: DescService;
  /** What the request is decoded as: the method's input, or its wire input. */
  readonly input: DescMessage;
  /** The interceptors around the implementation, composed once. */
  readonly invoke: (req: AnyRequest) => Promise<AnyResponse>;
}

const grpcContentTypes = new Set(["application/grpc", "application/grpc+proto"]);
const grpcWebContentTypes = new Set(["application/grpc-web", "application/grpc-web+proto"]);

export function createLeanCalls(options: LeanCallsOptions): LeanCalls {
  const methods = new Map<string, LeanMethod>();
  // Calls running, so that a shutdown reaches each without a listener per call.
  const running = new Set<TransportCallControl>();
  options.shutdownSignal.addEventListener("abort", () => {
    const reason = new ConnectError("the server is shutting down", Code.Unavailable);
    for (const control of running) control.abortFromTransport(reason);
  });

  function addService(service: DescService, impl: Partial<ServiceImpl<DescService>>): void {
    const spec = createServiceImplSpec(service, impl as ServiceImpl<DescService>);
    for (const method of service.methods) {
      if (!isLean(method)) continue;
      const implementation = spec.methods[method.localName]!.impl as Implementation;
      const path = `/${service.typeName}/${method.name}`;
      const input = options.wireInputs?.get(path) ?? method.input;
      methods.set(path, { ...leanMethod(service, method, implementation, options.interceptors), input });
    }
  }

  function accepts(method: string | undefined, path: string, headers: IncomingHttpHeaders, http2: boolean): LeanProtocol | undefined {
    if (method !== "POST" || !methods.has(path)) return undefined;
    const encoding = headers["grpc-encoding"];
    if (encoding !== undefined && encoding !== "identity") return undefined;
    const type = headers["content-type"] ?? "";
    if (grpcContentTypes.has(type)) return http2 ? "grpc" : undefined;
    return grpcWebContentTypes.has(type) ? "grpc-web" : undefined;
  }

  function serve(exchange: LeanExchange, call: LeanCall, body: Buffer): void {
    const lean = methods.get(call.path)!;
    const message = decodeEnvelope(lean.input, body);
    if (message === undefined) return call.fallBack(body);
    const forward = lean.method.methodKind === "unary" ? options.forwardOf?.(lean.service, lean.method, message) : undefined;
    new LeanRun(lean, exchange, call, running, options).start(message, forward, forward && body.subarray(5));
  }

  return { addService, accepts, serve };
}

// One call from its interceptors to its answer: the call's own control, the wait for the client
// going away or the deadline, and the answer.
class LeanRun {
  private readonly control = createCallControl();
  private settled = false;
  private readonly onGone = () => {
    if (!this.settled) this.control.abortFromTransport(new ConnectError("the client went away", Code.Canceled));
  };
  private readonly onDeadline = () => this.control.abortFromTransport(this.call.deadline!.signal.reason);
  private request: LeanRequest | undefined;

  constructor(
    private readonly lean: LeanMethod,
    private readonly exchange: LeanExchange,
    private readonly call: LeanCall,
    private readonly running: Set<TransportCallControl>,
    private readonly options: LeanCallsOptions,
  ) {}

  start(message: object, forward: Forward | undefined, bytes: Uint8Array | undefined): void {
    const { control, exchange, call } = this;
    this.running.add(control);
    call.values.set(callControlKey, control);
    exchange.watch(this.onGone);
    call.deadline?.signal.addEventListener("abort", this.onDeadline, { once: true });
    const request = (this.request = new LeanRequest(this.lean, message, forward, bytes, exchange, call, control));
    this.lean.invoke(request as unknown as AnyRequest).then(
      (response) => this.answered(response),
      (error: unknown) => this.failed(error),
    );
  }

  private answered(response: AnyResponse): void {
    if (!response.stream) {
      this.end();
      const bytes = (response as LeanResponse).bytes ?? encodingOf(response.message) ?? toBinary(this.lean.method.output, response.message as never);
      if (bytes.length > this.options.maxMessageBytes) return this.answer(errorAnswer(tooLargeAnswer(bytes.length, this.options), response.header));
      return this.answer({ header: response.header, trailer: response.trailer, message: bytes });
    }
    void this.stream(response).finally(() => this.end());
  }

  private failed(error: unknown): void {
    this.end();
    this.answer(errorAnswer(error, this.request!.responseHeader));
  }

  private end(): void {
    this.settled = true;
    this.running.delete(this.control);
    this.exchange.release(this.onGone);
    this.call.deadline?.signal.removeEventListener("abort", this.onDeadline);
  }

  private answer(outcome: Outcome): void {
    try {
      this.exchange.answer(outcome);
    } catch (error) {
      this.options.onError(error, this.call.path);
    }
  }

  // A stream's messages as the handler yields them, each written when the client can take it;
  // its end, or its error, in the trailers. A client gone ends the handler (its signal) and the
  // loop with it.
  private async stream(response: StreamResponse): Promise<void> {
    const { exchange, options } = this;
    const output = this.lean.method.output;
    const messages = response.message[Symbol.asyncIterator]();
    let done = false;
    try {
      for (;;) {
        const next = await messages.next();
        if (next.done) {
          done = true;
          break;
        }
        if (exchange.gone()) return;
        const bytes = toBinary(output, isMessage(next.value, output) ? next.value : create(output, next.value as never));
        if (bytes.length > options.maxMessageBytes) throw tooLargeAnswer(bytes.length, options);
        if (!exchange.started) exchange.start(response.header);
        if (!exchange.send(bytes)) await exchange.drained();
      }
      this.finish({ header: response.header, trailer: response.trailer });
    } catch (error) {
      this.finish(errorAnswer(error, response.header));
    } finally {
      if (!done) messages.return?.()?.catch(() => {});
    }
  }

  private finish(outcome: Outcome): void {
    if (!this.exchange.started) return this.answer(outcome);
    try {
      this.exchange.finish(outcome.trailer);
    } catch (error) {
      this.options.onError(error, this.call.path);
    }
  }
}

function tooLargeAnswer(size: number, options: LeanCallsOptions): ConnectError {
  return new ConnectError(`message size ${size} is larger than configured writeMaxBytes ${options.maxMessageBytes}`, Code.ResourceExhausted);
}

type Implementation = (input: unknown, context: HandlerContext) => unknown;

// One method: the interceptors composed once around the call of its implementation.
function leanMethod(service: DescService, method: LeanDescMethod, implementation: Implementation, interceptors: readonly Interceptor[]): Omit<LeanMethod, "input"> {
  const inner = async (req: AnyRequest): Promise<AnyResponse> => {
    const lean = req as LeanRequest;
    const context = new LeanContext(method, service, lean);
    if (req.stream) {
      const messages = implementation(await onlyMessage(req.message), context) as AsyncIterable<unknown>;
      return { service, header: lean.responseHeader, trailer: lean.responseTrailer, stream: true, method: method as DescMethodServerStreaming, message: messages } as StreamResponse;
    }
    if (lean.forward) return forwarded(service, method as DescMethodUnary, lean.forward, lean.bytes!, context);
    const answer = await implementation(req.message, context);
    const message = isMessage(answer, method.output) ? answer : create(method.output, answer as never);
    return { service, header: lean.responseHeader, trailer: lean.responseTrailer, stream: false, method: method as DescMethodUnary, message };
  };
  const invoke = interceptors.reduceRight<(req: AnyRequest) => Promise<AnyResponse>>((next, interceptor) => interceptor(next as never) as never, inner);
  return { method, service, invoke };
}

function isLean(method: DescService["methods"][number]): method is LeanDescMethod {
  return method.methodKind === "unary" || method.methodKind === "server_streaming";
}

// A server stream's request is one message, as an interceptor may have wrapped it.
async function onlyMessage(messages: AsyncIterable<unknown>): Promise<unknown> {
  let only: unknown;
  for await (const message of messages) only = message;
  return only;
}

async function* oneMessage(message: object): AsyncGenerator<object> {
  yield message;
}

// The request the interceptors and the implementation see, as connect would make it; what is
// seldom read (the URL, the signal) is worked out only when it is. An interceptor may pass on a
// copy (`{ ...req, signal }`): a copy keeps the fields, so what is worked out later reads fields.
class LeanRequest {
  readonly stream: boolean;
  readonly service: DescService;
  readonly method: LeanDescMethod;
  readonly requestMethod = "POST";
  readonly header: Headers;
  readonly contextValues: ContextValues;
  readonly message: unknown;
  readonly protocolName: LeanProtocol;
  readonly responseHeader: Headers;
  readonly responseTrailer = recordHeaders();
  readonly timeoutMs = leanTimeoutMs;

  constructor(
    lean: LeanMethod,
    message: object,
    readonly forward: Forward | undefined,
    readonly bytes: Uint8Array | undefined,
    readonly exchange: LeanExchange,
    readonly call: LeanCall,
    readonly control: CallControl,
  ) {
    this.stream = lean.method.methodKind === "server_streaming";
    this.service = lean.service;
    this.method = lean.method;
    this.header = recordHeaders(exchange.headers as Record<string, string | string[] | undefined>);
    this.contextValues = call.values;
    this.message = this.stream ? oneMessage(message) : message;
    this.protocolName = exchange.protocol;
    this.responseHeader = recordHeaders({ "content-type": responseContentType[exchange.protocol] });
  }

  get url(): string {
    return leanUrl(this);
  }

  get signal(): AbortSignal {
    return this.control.signal;
  }
}

function leanTimeoutMs(this: Pick<LeanRequest, "call">): number | undefined {
  return this.call.deadline?.remainingMs();
}

function leanUrl(req: Pick<LeanRequest, "exchange" | "call">): string {
  const headers = req.exchange.headers;
  return `http://${headers[":authority"] ?? headers.host ?? "localhost"}${req.call.path}`;
}

// The handler's context, as connect would make it, from the request as the interceptors left it.
class LeanContext implements HandlerContext {
  readonly requestMethod = "POST";
  readonly protocolName: string;
  readonly requestHeader: Headers;
  readonly responseHeader: Headers;
  readonly responseTrailer: Headers;
  readonly values: ContextValues;

  constructor(
    readonly method: LeanDescMethod,
    readonly service: DescService,
    private readonly req: LeanRequest,
  ) {
    this.protocolName = req.protocolName;
    this.requestHeader = req.header;
    this.responseHeader = req.responseHeader;
    this.responseTrailer = req.responseTrailer;
    this.values = req.contextValues;
  }

  get url(): string {
    return this.req.url ?? leanUrl(this.req);
  }

  // Made only if the handler reads it.
  get signal(): AbortSignal {
    return this.req.signal ?? this.req.control.signal;
  }

  timeoutMs(): number | undefined {
    return this.req.timeoutMs();
  }
}

/** The one message of a well-formed body, or undefined for anything else (left to connect). */
function decodeEnvelope(schema: DescMessage, body: Buffer): object | undefined {
  if (body.length < 5 || body[0] !== 0 || body.readUInt32BE(1) !== body.length - 5) return undefined;
  try {
    return fromBinary(schema, body.subarray(5));
  } catch {
    return undefined;
  }
}

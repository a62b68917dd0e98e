// The short way for the calls a robot makes most: unary calls and server streams in binary gRPC
// over HTTP/2 and binary gRPC-web, uncompressed. connect's protocol handlers are general (every
// protocol, every method kind, compression, JSON), and pay per call for that generality:
// async-iterable pipelines, WHATWG Headers and URL objects, several AbortControllers. Here a call
// is its body gathered under the port's limits, one envelope, protobuf-es decode, the SAME
// interceptors (bounds, auth, operations, telemetry) around the SAME implementation the router
// holds, encode, and the answer written: for a unary call one write of headers, message and
// trailers; for a stream the headers with its first message, each message as it comes (waiting
// while the client is slow to read), then the trailers. Errors are written by connect's own
// trailer code, so a client sees the same statuses, messages and details either way.
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
import type { Writable } from "node:stream";
import type { CallDeadline } from "./call-deadline.js";
import { callControlKey, createCallControl, type CallControl, type TransportCallControl } from "./call-control.js";
import { encodingOf } from "./encoded-answer.js";
import type { HttpRequest, HttpResponse } from "./http-types.js";
import { answerHeader, drained, envelope, errorAnswer, isGone, responseContentType, writeAnswer, writeTrailers, type LeanProtocol, type Outcome } from "./lean-answer.js";
import { recordHeaders } from "./record-headers.js";

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

/** Carries a call's request bytes to whoever really serves it; resolves with the answer's bytes. */
export type Forward = (message: Uint8Array, context: HandlerContext) => Promise<Uint8Array>;
export type ForwardOf = (service: DescService, method: DescMethodUnary, request: object) => Forward | undefined;

/** What a call on the lean path is given by the port. */
export interface LeanCall {
  readonly path: string;
  readonly protocol: LeanProtocol;
  readonly values: ContextValues;
  /** The call's deadline, when it has one. */
  readonly deadline?: CallDeadline;
  /** The general way, for a call this path does not take after all: given the body already read. */
  readonly fallBack: (body: Buffer) => void;
}

export interface LeanCalls {
  /** Records a service as the router registers it; its unary methods and server streams get the short way. */
  addService(service: DescService, impl: Partial<ServiceImpl<DescService>>): void;
  /** The protocol of a request this path takes for `path`, or undefined. */
  accepts(req: HttpRequest, path: string): LeanProtocol | undefined;
  /** Runs the call (accepts() said yes) on its body, read whole under the port's limits. */
  serve(req: HttpRequest, res: HttpResponse, call: LeanCall, body: Buffer): void;
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

  function accepts(req: HttpRequest, path: string): LeanProtocol | undefined {
    if (req.method !== "POST" || !methods.has(path)) return undefined;
    const encoding = req.headers["grpc-encoding"];
    if (encoding !== undefined && encoding !== "identity") return undefined;
    const type = req.headers["content-type"] ?? "";
    if (grpcContentTypes.has(type)) return "stream" in req ? "grpc" : undefined;
    return grpcWebContentTypes.has(type) ? "grpc-web" : undefined;
  }

  function serve(req: HttpRequest, res: HttpResponse, call: LeanCall, body: Buffer): void {
    const lean = methods.get(call.path)!;
    const message = decodeEnvelope(lean.input, body);
    if (message === undefined) return call.fallBack(body);
    const forward = lean.method.methodKind === "unary" ? options.forwardOf?.(lean.service, lean.method, message) : undefined;
    run(lean, { message, forward, bytes: forward && body.subarray(5) }, req, res, call);
  }

  // The call itself: the interceptors and the implementation, then the answer.
  function run(lean: LeanMethod, input: LeanInput, req: HttpRequest, res: HttpResponse, call: LeanCall): void {
    const control = createCallControl();
    running.add(control);
    call.values.set(callControlKey, control);
    let settled = false;
    const onClose = () => {
      if (!settled) control.abortFromTransport(new ConnectError("the client went away", Code.Canceled));
    };
    res.once("close", onClose);
    const deadline = call.deadline?.signal;
    const onDeadline = () => control.abortFromTransport(deadline!.reason);
    deadline?.addEventListener("abort", onDeadline, { once: true });

    const request = leanRequest(lean, input, req, call, control);
    lean
      .invoke(request)
      .then(
        (response) => (response.stream ? streamAnswer(res, call, lean, response, options) : unaryAnswer(res, call, lean, response, options)),
        (error: unknown) => answer(res, call, errorAnswer(error, request.responseHeader), options),
      )
      .finally(() => {
        settled = true;
        running.delete(control);
        res.off("close", onClose);
        deadline?.removeEventListener("abort", onDeadline);
      });
  }

  return { addService, accepts, serve };
}

function unaryAnswer(res: HttpResponse, call: LeanCall, lean: LeanMethod, response: UnaryResponse, options: LeanCallsOptions): void {
  const bytes = (response as LeanResponse).bytes ?? encodingOf(response.message) ?? toBinary(lean.method.output, response.message as never);
  if (bytes.length > options.maxMessageBytes) return answer(res, call, errorAnswer(tooLargeAnswer(bytes.length, options), response.header), options);
  answer(res, call, { header: response.header, trailer: response.trailer, message: bytes }, options);
}

// A stream's messages as the handler yields them, each written when the client can take it;
// its end, or its error, in the trailers. A client gone ends the handler (its signal) and the
// loop with it.
async function streamAnswer(res: HttpResponse, call: LeanCall, lean: LeanMethod, response: StreamResponse, options: LeanCallsOptions): Promise<void> {
  const output = lean.method.output;
  const messages = response.message[Symbol.asyncIterator]();
  let done = false;
  try {
    for (;;) {
      const next = await messages.next();
      if (next.done) {
        done = true;
        break;
      }
      if (isGone(res)) return;
      const bytes = toBinary(output, isMessage(next.value, output) ? next.value : create(output, next.value as never));
      if (bytes.length > options.maxMessageBytes) throw tooLargeAnswer(bytes.length, options);
      if (!res.headersSent) res.writeHead(200, answerHeader(response.header, call.protocol));
      if (!(res as Writable).write(envelope(0, bytes))) await drained(res);
    }
    endStream(res, call, { header: response.header, trailer: response.trailer }, options);
  } catch (error) {
    endStream(res, call, errorAnswer(error, response.header), options);
  } finally {
    if (!done) messages.return?.()?.catch(() => {});
  }
}

function answer(res: HttpResponse, call: LeanCall, outcome: Outcome, options: LeanCallsOptions): void {
  try {
    writeAnswer(res, call.protocol, outcome);
  } catch (error) {
    options.onError(error, call.path);
  }
}

function endStream(res: HttpResponse, call: LeanCall, outcome: Outcome, options: LeanCallsOptions): void {
  if (!res.headersSent) return answer(res, call, outcome, options);
  try {
    if (!isGone(res) && !res.writableEnded) writeTrailers(res, call.protocol, outcome.trailer);
  } catch (error) {
    options.onError(error, call.path);
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
    // The request as the interceptors left it; its signal is made only if the handler reads it.
    const context: HandlerContext = {
      method,
      service,
      requestMethod: "POST",
      protocolName: lean.protocolName,
      url: req.url,
      get signal() {
        return req.signal;
      },
      timeoutMs: lean.timeoutMs,
      requestHeader: req.header,
      responseHeader: lean.responseHeader,
      responseTrailer: lean.responseTrailer,
      values: req.contextValues,
    };
    const reply = { service, header: lean.responseHeader, trailer: lean.responseTrailer };
    if (req.stream) {
      const messages = implementation(await onlyMessage(req.message), context) as AsyncIterable<unknown>;
      return { ...reply, stream: true, method: method as DescMethodServerStreaming, message: messages } as StreamResponse;
    }
    if (lean.forward) return forwarded(service, method as DescMethodUnary, lean.forward, lean.bytes!, context);
    const answer = await implementation(req.message, context);
    return { ...reply, stream: false, method: method as DescMethodUnary, message: isMessage(answer, method.output) ? answer : create(method.output, answer as never) };
  };
  const invoke = interceptors.reduceRight<(req: AnyRequest) => Promise<AnyResponse>>((next, interceptor) => interceptor(next as never) as never, inner);
  return { method, service, invoke };
}

// The answer's bytes as they came; the message is decoded only if an interceptor reads it.
async function forwarded(service: DescService, method: DescMethodUnary, forward: Forward, bytes: Uint8Array, context: HandlerContext): Promise<LeanResponse> {
  const answer = await forward(bytes, context);
  let message: unknown;
  return {
    stream: false,
    service,
    method,
    header: context.responseHeader,
    trailer: context.responseTrailer,
    get message() {
      return (message ??= fromBinary(method.output, answer)) as never;
    },
    bytes: answer,
  };
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

interface LeanInput {
  readonly message: object;
  /** Set when another process serves the call's resource: the request's bytes go to it. */
  readonly forward?: Forward;
  readonly bytes?: Uint8Array;
}

interface LeanResponse extends UnaryResponse {
  /** The answer's bytes, when they came from elsewhere already encoded. */
  readonly bytes?: Uint8Array;
}

type LeanRequest = AnyRequest & {
  readonly forward?: Forward;
  readonly bytes?: Uint8Array;
  readonly protocolName: LeanProtocol;
  readonly timeoutMs: () => number | undefined;
  readonly responseHeader: Headers;
  readonly responseTrailer: Headers;
};

function leanRequest(lean: LeanMethod, input: LeanInput, req: HttpRequest, call: LeanCall, control: CallControl): LeanRequest {
  const stream = lean.method.methodKind === "server_streaming";
  return {
    stream,
    service: lean.service,
    method: lean.method,
    requestMethod: "POST",
    url: `http://${req.headers[":authority"] ?? req.headers.host ?? "localhost"}${call.path}`,
    get signal() {
      return control.signal;
    },
    header: recordHeaders(req.headers as Record<string, string | string[] | undefined>),
    contextValues: call.values,
    message: (stream ? oneMessage(input.message) : input.message) as never,
    forward: input.forward,
    bytes: input.bytes,
    protocolName: call.protocol,
    timeoutMs: () => call.deadline?.remainingMs(),
    responseHeader: recordHeaders({ "content-type": responseContentType[call.protocol] }),
    responseTrailer: recordHeaders(),
  } as LeanRequest;
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

// The short way for the calls a robot makes most: unary calls in binary gRPC over HTTP/2 and
// binary gRPC-web, uncompressed. connect's protocol handlers are general (every protocol, every
// method kind, compression, JSON), and pay per call for that generality: async-iterable
// pipelines, WHATWG Headers and URL objects, several AbortControllers. Here a call is its body
// gathered under the port's limits, one envelope, protobuf-es decode, the SAME interceptors
// (bounds, auth, operations, telemetry) around the SAME implementation the router holds, encode,
// and one write of headers, message and trailers. Errors are written by connect's own trailer
// code, so a client sees the same statuses, messages and details either way.
//
// Whatever is out of the ordinary goes the general way with the body already read: a body that
// is not exactly one well-formed envelope, a message that does not decode, compression, JSON,
// gRPC-web's text form. connect then answers it exactly as it always did.
import { create, fromBinary, isMessage, toBinary, type DescMessage, type DescMethodUnary, type DescService } from "@bufbuild/protobuf";
import {
  ConnectError,
  createServiceImplSpec,
  type ContextValues,
  type HandlerContext,
  type Interceptor,
  type ServiceImpl,
  type UnaryRequest,
  type UnaryResponse,
} from "@connectrpc/connect";
import { setTrailerStatus } from "@connectrpc/connect/protocol-grpc";
import { Code } from "../../../../core/index.js";
import { trailerFlag, trailerSerialize } from "@connectrpc/connect/protocol-grpc-web";
import type { CallDeadline } from "./call-deadline.js";
import { callControlKey, createCallControl, type CallControl, type TransportCallControl } from "./call-control.js";
import type { HttpRequest, HttpResponse } from "./http-types.js";
import { headerRecord, recordHeaders } from "./record-headers.js";

export type LeanProtocol = "grpc" | "grpc-web";

export interface LeanUnaryOptions {
  /** The same interceptors connect's router runs, outermost first. */
  readonly interceptors: readonly Interceptor[];
  readonly shutdownSignal: AbortSignal;
  /** Largest response message (the request side is held by the caller's limits). */
  readonly maxMessageBytes: number;
  /** Told when an answer could not be written. */
  readonly onError: (error: unknown, path: string) => void;
  /** For a request whose resource another process serves: the way its bytes pass through. */
  readonly forwardOf?: ForwardOf;
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

export interface LeanUnary {
  /** Records a service as the router registers it; its unary methods get the short way. */
  addService(service: DescService, impl: Partial<ServiceImpl<DescService>>): void;
  /** The protocol of a request this path takes for `path`, or undefined. */
  accepts(req: HttpRequest, path: string): LeanProtocol | undefined;
  /** Runs the call (accepts() said yes) on its body, read whole under the port's limits. */
  serve(req: HttpRequest, res: HttpResponse, call: LeanCall, body: Buffer): void;
}

interface LeanMethod {
  readonly method: DescMethodUnary;
  readonly service: DescService;
  /** The interceptors around the implementation, composed once. */
  readonly invoke: (req: UnaryRequest) => Promise<UnaryResponse>;
}

const grpcContentTypes = new Set(["application/grpc", "application/grpc+proto"]);
const grpcWebContentTypes = new Set(["application/grpc-web", "application/grpc-web+proto"]);
const responseContentType: Record<LeanProtocol, string> = {
  grpc: "application/grpc+proto",
  "grpc-web": "application/grpc-web+proto",
};

export function createLeanUnary(options: LeanUnaryOptions): LeanUnary {
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
      if (!isUnary(method)) continue;
      const implementation = spec.methods[method.localName]!.impl as Implementation;
      methods.set(`/${service.typeName}/${method.name}`, leanMethod(service, method, implementation, options.interceptors));
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
    const message = decodeEnvelope(lean.method.input, body);
    if (message === undefined) return call.fallBack(body);
    const forward = options.forwardOf?.(lean.service, lean.method, message);
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
    lean.invoke(request).then(
      (response) => {
        const bytes = (response as LeanResponse).bytes ?? toBinary(lean.method.output, response.message as never);
        if (bytes.length > options.maxMessageBytes) {
          const tooLarge = new ConnectError(
            `message size ${bytes.length} is larger than configured writeMaxBytes ${options.maxMessageBytes}`,
            Code.ResourceExhausted,
          );
          return answer(res, call, errorAnswer(tooLarge, response.header));
        }
        answer(res, call, { header: response.header, trailer: response.trailer, message: bytes });
      },
      (error: unknown) => answer(res, call, errorAnswer(error, request.responseHeader)),
    ).finally(() => {
      settled = true;
      running.delete(control);
      res.off("close", onClose);
      deadline?.removeEventListener("abort", onDeadline);
    });
  }

  function answer(res: HttpResponse, call: LeanCall, outcome: Outcome): void {
    try {
      writeAnswer(res, call.protocol, outcome);
    } catch (error) {
      options.onError(error, call.path);
    }
  }

  return { addService, accepts, serve };
}

type Implementation = (input: unknown, context: HandlerContext) => unknown;

// One method: the interceptors composed once around the call of its implementation.
function leanMethod(service: DescService, method: DescMethodUnary, implementation: Implementation, interceptors: readonly Interceptor[]): LeanMethod {
  const inner = async (req: UnaryRequest): Promise<UnaryResponse> => {
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
    if (lean.forward) return forwarded(service, method, lean.forward, lean.bytes!, context);
    const answer = await implementation(req.message, context);
    return {
      stream: false,
      service,
      method,
      header: lean.responseHeader,
      trailer: lean.responseTrailer,
      message: isMessage(answer, method.output) ? answer : create(method.output, answer as never),
    };
  };
  const invoke = interceptors.reduceRight<(req: UnaryRequest) => Promise<UnaryResponse>>(
    (next, interceptor) => interceptor(next as never) as never,
    inner,
  );
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

function isUnary(method: DescService["methods"][number]): method is DescMethodUnary {
  return method.methodKind === "unary";
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

interface LeanRequest extends UnaryRequest {
  readonly forward?: Forward;
  readonly bytes?: Uint8Array;
  readonly protocolName: LeanProtocol;
  readonly timeoutMs: () => number | undefined;
  readonly responseHeader: Headers;
  readonly responseTrailer: Headers;
}

function leanRequest(lean: LeanMethod, input: LeanInput, req: HttpRequest, call: LeanCall, control: CallControl): LeanRequest {
  return {
    stream: false,
    service: lean.service,
    method: lean.method,
    requestMethod: "POST",
    url: `http://${req.headers[":authority"] ?? req.headers.host ?? "localhost"}${call.path}`,
    get signal() {
      return control.signal;
    },
    header: recordHeaders(req.headers as Record<string, string | string[] | undefined>),
    contextValues: call.values,
    message: input.message as never,
    forward: input.forward,
    bytes: input.bytes,
    protocolName: call.protocol,
    timeoutMs: () => call.deadline?.remainingMs(),
    responseHeader: recordHeaders({ "content-type": responseContentType[call.protocol] }),
    responseTrailer: recordHeaders(),
  };
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

interface Outcome {
  readonly header: Headers;
  readonly trailer: Headers;
  /** The answer's bytes; none when the call failed. */
  readonly message?: Uint8Array;
}

// As connect does: a ConnectError's status, metadata and details go in the trailer; anything
// else is an internal error whose text stays here.
function errorAnswer(error: unknown, header?: Headers): Outcome {
  const connectError = error instanceof ConnectError ? error : new ConnectError("internal error", Code.Internal, undefined, undefined, error);
  return { header: header ?? recordHeaders(), trailer: setTrailerStatus(recordHeaders(), connectError) };
}

function writeAnswer(res: HttpResponse, protocol: LeanProtocol, outcome: Outcome): void {
  if (res.headersSent || res.writableEnded) return;
  const header = headerRecord(outcome.header);
  header["content-type"] ??= responseContentType[protocol];
  const trailer = headerRecord(outcome.trailer);
  trailer["grpc-status"] ??= "0";
  res.writeHead(200, header);
  if (protocol === "grpc") {
    res.addTrailers(trailer);
    if (outcome.message) res.end(envelope(0, outcome.message));
    else res.end();
    return;
  }
  const onlyOk = trailer["grpc-status"] === "0" && Object.keys(trailer).length === 1;
  const trailerFrame = onlyOk ? okTrailerFrame : envelope(trailerFlag, trailerSerialize(recordHeaders(trailer)));
  if (!outcome.message) return void res.end(trailerFrame);
  // One buffer: the message's frame, then the trailer's.
  const body = Buffer.allocUnsafe(5 + outcome.message.length + trailerFrame.length);
  body[0] = 0;
  body.writeUInt32BE(outcome.message.length, 1);
  body.set(outcome.message, 5);
  body.set(trailerFrame, 5 + outcome.message.length);
  res.end(body);
}

// The trailer of almost every gRPC-web answer, framed once.
const okTrailerFrame = envelope(trailerFlag, trailerSerialize(recordHeaders({ "grpc-status": "0" })));

function envelope(flags: number, bytes: Uint8Array): Buffer {
  const frame = Buffer.allocUnsafe(5 + bytes.length);
  frame[0] = flags;
  frame.writeUInt32BE(bytes.length, 1);
  frame.set(bytes, 5);
  return frame;
}

// Serves the RPC methods on the API port: connect's router and protocols, with the request side
// held to the limits before connect reads a byte. In order, for a request to a served method:
// a declared length over the limit is refused; the caller must pass `checkRpc` (credentials)
// before its body is read, or is refused; then the body is read under the limits and the call's
// deadline, whole for a unary call or a server stream the lean path takes (collect-body.ts), as
// it arrives for any other stream (request-body.ts). Refusals are answered in the caller's
// protocol without reading the body. connect-node's own adapter does none of this (it
// hands the whole body to connect, which reads it before any interceptor runs), so this takes
// its place; it is the same few steps around the same connect functions. Unary calls and server
// streams in binary gRPC and gRPC-web take the lean path (lean-calls.ts): the same limits,
// interceptors and implementations without connect's general machinery; everything else goes
// through connect.
import {
  ConnectError,
  createConnectRouter,
  createContextKey,
  type ConnectRouter,
  type ContextValues,
  type Interceptor,
} from "@connectrpc/connect";
import type { DescMessage } from "@bufbuild/protobuf";
import type { IncomingHttpHeaders, ServerHttp2Stream } from "node:http2";
import type { UniversalHandler } from "@connectrpc/connect/protocol";
import {
  compressionBrotli,
  compressionGzip,
} from "@connectrpc/connect-node";
import { Code } from "../../core/index.js";
import { callHasDeadlineKey, createCallBoundsInterceptor } from "./call-bounds.js";
import { startCallDeadline } from "./call-deadline.js";
import type { HttpRequest, HttpResponse } from "./http-types.js";
import { tooLarge, type BodyLimit, type RpcLimits } from "./rpc-limits.js";
import { readRequestBody } from "./request-body.js";
import { collectBody } from "./collect-body.js";
import { createLeanCalls, type ForwardOf, type LeanCalls } from "./lean-calls.js";
import { isPromise, type MaybeAsync } from "./maybe-async.js";
import { isRefusal, type RpcCheck, type RpcRefusal } from "./rpc-refusal.js";
import { ResponseIncoming, StreamIncoming, type RpcIncoming } from "./rpc-incoming.js";
import { createForeignMethods, type ForeignServices } from "./foreign-methods.js";

/**
 * The entity (key id) whose credentials `checkRpc` admitted for this very call before its body
 * was read; "" when no check admitted it. An auth interceptor need not check the same token twice.
 */
export const admittedEntityKey = createContextKey<string>("", { description: "svc admitted entity" });

export interface RpcHandlerOptions {
  readonly routes: (router: ConnectRouter) => void;
  /** Run around every call, inside the port's own bounds (deadline, error size). */
  readonly interceptors: readonly Interceptor[];
  readonly shutdownSignal: AbortSignal;
  /** The values every call of this request starts with (who its peer is). */
  readonly contextValues: (incoming: RpcIncoming) => ContextValues;
  readonly limits: RpcLimits;
  /** What a call must pass before its body is read; a refusal is answered instead, an admission noted (admittedEntityKey). Answered at once when it can be (a token already verified). */
  readonly checkRpc?: (incoming: RpcIncoming, path: string) => MaybeAsync<RpcCheck>;
  /** Paths of methods callable without credentials: `checkRpc` is not asked, bodies are held to `openMethodMaxBytes`. */
  readonly openMethods?: readonly string[];
  /** Told when checkRpc throws (the call hears INTERNAL) or an answer cannot be written. */
  readonly onError: (error: unknown, path: string) => void;
  /** Unary calls whose resource another process serves pass through as bytes (lean-calls.ts). */
  readonly forwardOf?: ForwardOf;
  /** Requests the short way reads as a wire-identical message of the server's own (lean-calls.ts). */
  readonly wireInputs?: ReadonlyMap<string, DescMessage>;
  /** Services this process has no description of whose calls pass on as bytes (foreign-methods.ts). */
  readonly foreign?: ForeignServices;
}

export interface RpcHandler {
  /** Fully qualified names of the services served. */
  readonly services: ReadonlySet<string>;
  /** Serves the call when `path` is a served method; false when it is not. */
  serve(req: HttpRequest, res: HttpResponse, path: string): boolean;
  /**
   * Serves an HTTP/2 request given as its bare stream when it is a gRPC call the lean path takes
   * (a unary call or a server stream, needing credentials, not compressed, nothing to continue);
   * false, and the stream untouched, otherwise.
   */
  serveStream(stream: ServerHttp2Stream, headers: IncomingHttpHeaders, rawHeaders: string[]): boolean;
  /**
   * Serves a call that came another way than HTTP (a WebRTC data channel: see its RpcIncoming)
   * when `path` is a served method, through the same checks, bounds and implementations; false
   * when it is not.
   */
  serveIncoming(incoming: RpcIncoming, path: string): boolean;
  /** True when the method at `path` takes one message from its client (unary, server stream). */
  takesOneMessage(path: string): boolean;
}

// The 5-byte prefix of one length-prefixed message.
const prefixBytes = 5;

export function createRpcHandler(options: RpcHandlerOptions): RpcHandler {
  const { limits, checkRpc, onError } = options;
  const { methods, services, lean, foreign } = routeCalls(options);
  const open = new Set(options.openMethods ?? []);
  // A served method, or one of a service passed on.
  const methodFor = (path: string, headers: IncomingHttpHeaders) => methods.get(path) ?? foreign?.handlerFor(path, headers["content-type"]);

  function run(method: UniversalHandler, incoming: RpcIncoming, path: string, isOpen: boolean, entity?: string): void {
    const headers = incoming.headers;
    const deadline = startCallDeadline(headers);
    if (deadline) incoming.onClose(deadline.clear);
    const { enveloped, limit, maxBodyBytes } = bodyBounds(limits, headers, method, isOpen);
    let values: ContextValues;
    try {
      values = options.contextValues(incoming);
    } catch (error) {
      onError(error, path);
      return refuse(incoming, { code: Code.Internal, message: "internal error" });
    }
    if (deadline) values.set(callHasDeadlineKey, true);
    if (entity !== undefined) values.set(admittedEntityKey, entity);
    if (headers.expect !== undefined) incoming.expectContinue();
    const onAbandoned = () => incoming.closeAfterAnswer();
    const protocol = maxBodyBytes === undefined ? undefined : lean.accepts(incoming.method, path, headers, incoming.http2);
    const connect = (body: AsyncIterable<Uint8Array>) => incoming.connect(method, path, onError, { values, body, deadline: deadline?.signal });
    // A call taking one message (unary, or a server stream the lean path takes) is read whole;
    // the others as their messages come, each held to the limit, so a broken bound is answered in
    // the call's own stream, as connect does.
    const whole = method.method.methodKind === "unary" || protocol !== undefined;
    if (!whole || maxBodyBytes === undefined) {
      return connect(readRequestBody(incoming.body, { enveloped, limit, maxBodyBytes, deadline: deadline?.signal, onAbandoned }));
    }
    // Its whole body, under the same bounds whichever way the call then goes.
    collectBody(incoming.body, { limit, maxBodyBytes, enveloped, deadline: deadline?.signal, onAbandoned }).then(
      (body) => {
        const fallBack = (read: Buffer) => connect(onlyChunk(read));
        if (protocol === undefined) return fallBack(body);
        lean.serve(incoming.exchange(protocol), { path, values, deadline, fallBack }, body);
      },
      (error: unknown) => refuse(incoming, refusalOf(error)),
    );
  }

  // Credentials first: a caller without them hears that first, whatever else is wrong with its call.
  function admit(method: UniversalHandler, incoming: RpcIncoming, path: string): void {
    const isOpen = open.has(path);
    const admitted = (entity?: string): void => {
      const tooLarge = declaredTooLarge(limits, incoming.headers, method, isOpen);
      if (tooLarge) refuse(incoming, tooLarge);
      else run(method, incoming, path, isOpen, entity);
    };
    if (!checkRpc || isOpen) return admitted();
    const decide = (check: RpcCheck) => (isRefusal(check) ? refuse(incoming, check) : admitted(check?.entity));
    const failed = (error: unknown) => {
      onError(error, path);
      refuse(incoming, { code: Code.Internal, message: "internal error" });
    };
    let check: MaybeAsync<RpcCheck>;
    try {
      check = checkRpc(incoming, path);
    } catch (error) {
      return failed(error);
    }
    if (isPromise(check)) check.then(decide, failed);
    else decide(check);
  }

  return {
    services,
    serve(req, res, path) {
      const method = methodFor(path, req.headers);
      if (!method) return false;
      admit(method, new ResponseIncoming(req, res), path);
      return true;
    },
    serveStream(stream, headers, rawHeaders) {
      const path = pathOf(headers[":path"]);
      const method = methods.get(path);
      if (!method || open.has(path) || headers.expect !== undefined) return false;
      if (lean.accepts(headers[":method"], path, headers, true) !== "grpc") return false;
      admit(method, new StreamIncoming(stream, headers, rawHeaders), path);
      return true;
    },
    serveIncoming(incoming, path) {
      const method = methodFor(path, incoming.headers);
      if (!method) return false;
      admit(method, incoming, path);
      return true;
    },
    takesOneMessage(path) {
      const method = methods.get(path);
      return method !== undefined ? singleMessage(method) : foreign?.serves(path) === true;
    },
  };
}

// The served methods by path, registered once with connect's router and once with the lean path,
// both behind the port's own bounds and then the given interceptors.
function routeCalls(options: RpcHandlerOptions) {
  const { limits, onError } = options;
  const interceptors = [createCallBoundsInterceptor(), ...options.interceptors];
  const routerOptions = {
    interceptors,
    shutdownSignal: options.shutdownSignal,
    acceptCompression: [compressionGzip, compressionBrotli],
    // connect's own checks, after decompression too; readRequestBody checks before.
    readMaxBytes: limits.maxMessageBytes,
    writeMaxBytes: limits.maxMessageBytes,
  };
  const router = createConnectRouter(routerOptions);
  const foreign = options.foreign && createForeignMethods(options.foreign, routerOptions);
  const lean = createLeanCalls({
    interceptors,
    shutdownSignal: options.shutdownSignal,
    maxMessageBytes: limits.maxMessageBytes,
    onError,
    forwardOf: options.forwardOf,
    wireInputs: options.wireInputs,
  });
  options.routes(recordingServices(router, lean.addService));
  const methods = new Map<string, UniversalHandler>();
  const services = new Set<string>();
  for (const handler of router.handlers) {
    methods.set(handler.requestPath, handler);
    services.add(handler.service.typeName);
  }
  return { methods, services, lean, foreign };
}

// How a call's body is framed and how large it may be: a message's limit, and for a call
// taking one message the whole body's (that message and its prefix).
function bodyBounds(limits: RpcLimits, headers: IncomingHttpHeaders, method: UniversalHandler, isOpen: boolean) {
  const contentType = headers["content-type"] ?? "";
  const enveloped = contentType.startsWith("application/grpc") || contentType.startsWith("application/connect+");
  const limit: BodyLimit = isOpen
    ? { maxMessageBytes: limits.openMethodMaxBytes, open: true }
    : { maxMessageBytes: limits.maxMessageBytes, open: false, messageSizeSetting: limits.messageSizeSetting };
  const maxBodyBytes = singleMessage(method) ? limit.maxMessageBytes + (enveloped ? prefixBytes : 0) : undefined;
  return { enveloped, limit, maxBodyBytes };
}

// A body whose declared length is over the limit is refused before any of it is read.
function declaredTooLarge(limits: RpcLimits, headers: IncomingHttpHeaders, method: UniversalHandler, isOpen: boolean): RpcRefusal | undefined {
  const length = headers["content-length"];
  const { limit, maxBodyBytes } = bodyBounds(limits, headers, method, isOpen);
  if (length === undefined || maxBodyBytes === undefined) return undefined;
  const declared = Number(length);
  if (!(declared > maxBodyBytes)) return undefined;
  const error = tooLarge(`request body of ${declared} bytes`, limit);
  return { code: error.code, message: error.rawMessage };
}

// A router that also hands each service it registers to `record`, so the lean path serves the
// very implementations connect does.
function recordingServices(router: ConnectRouter, record: LeanCalls["addService"]): ConnectRouter {
  return {
    ...router,
    service(service, impl, serviceOptions) {
      // Options of its own (interceptors, limits) are for connect's path alone.
      if (serviceOptions === undefined) record(service, impl as never);
      router.service(service, impl, serviceOptions);
      return this;
    },
    rpc: (...args: Parameters<ConnectRouter["rpc"]>) => (router.rpc as (...a: unknown[]) => ConnectRouter)(...args),
  } as ConnectRouter;
}

// A body that broke a bound, passed its deadline or failed: what the caller is told.
function refusalOf(error: unknown): RpcRefusal {
  const known = error instanceof ConnectError ? error : undefined;
  return known ? { code: known.code as number as Code, message: known.rawMessage } : { code: Code.Unavailable, message: "the request body could not be read" };
}

async function* onlyChunk(chunk: Uint8Array): AsyncGenerator<Uint8Array> {
  yield chunk;
}

// Unary and server-streaming calls take one message: their whole body is held to its limit.
function singleMessage(method: UniversalHandler): boolean {
  return method.method.methodKind === "unary" || method.method.methodKind === "server_streaming";
}

// A refusal in the caller's protocol.
function refuse(incoming: RpcIncoming, refusal: RpcRefusal): void {
  incoming.refuse(refusal);
}

/** A request target's path, without its query. */
function pathOf(target: string | undefined): string {
  const url = target ?? "/";
  const query = url.indexOf("?");
  return query < 0 ? url : url.slice(0, query);
}

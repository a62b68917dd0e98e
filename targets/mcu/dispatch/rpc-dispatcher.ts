// The transport-free RPC dispatcher: a method path and a gRPC-web request body in, a gRPC-web
// response body out (the message and a trailer with grpc-status and grpc-message). It decodes
// with the compact codec, runs the call through the call runner (session check, operation) and
// the same handlers the Linux server registers, and encodes the answer. Errors are the handlers'
// SvcErrors by code; an unknown method is UNIMPLEMENTED (12). Unary methods only.
import type { CallRunner } from "../../../core/index.js";
import type { WireCodec } from "../codec/index.js";
import { runOperation, type RunningOperation } from "../../../core/index.js";
import { Code, errorMessage, SvcError } from "../../../core/index.js";
import { errorBody, requestMessage, responseBody } from "./grpc-web-frames.js";

type Handler = (request: Record<string, unknown>, call: RunningOperation) => Promise<object>;

export interface DispatchRequest {
  /** "/viam.component.sensor.v1.SensorService/GetReadings" */
  path: string;
  /** The gRPC-web request body: one message frame. */
  body: Uint8Array;
  /** The session the call carries (header "viam-sid"), "" or absent for none. */
  sessionId?: string;
}

export interface DispatchedCall {
  /** The response body; never rejects (a failure is a trailer with its status). */
  readonly done: Promise<Uint8Array>;
  /** The client went away or its deadline passed: the call is cancelled with `code`. */
  cancel(code?: Code, message?: string): void;
}

export interface RpcDispatcher {
  /** Starts serving one call. */
  start(request: DispatchRequest): DispatchedCall;
  /** Whether `path` names a method served. */
  serves(path: string): boolean;
}

export interface RpcDispatcherOptions {
  codec: WireCodec;
  /**
   * By service full name ("viam.robot.v1.RobotService"), what makes its handlers (keyed by method
   * localName, as the core's createXService factories return them). Called on the service's first
   * call, so a service nobody calls costs no memory.
   */
  services: Readonly<Record<string, () => object>>;
  runner: CallRunner;
}

interface Route {
  input: number;
  output: number;
  handlers: object;
  handler: Handler;
}

// grpc-status of a call that succeeded.
const OK = 0;
const nothingToCancel = () => {};

function finished(body: Uint8Array): DispatchedCall {
  return { done: Promise.resolve(body), cancel: nothingToCancel };
}

/** What the dispatcher keeps: its parts, and the routes and handlers resolved so far. */
interface DispatcherState {
  readonly codec: WireCodec;
  readonly runner: CallRunner;
  readonly services: Readonly<Record<string, () => object>>;
  // Resolved on a method's first call: after that a call costs one map lookup to find its
  // decoder, handler and encoder. Only methods served are kept, so unknown paths cannot grow it.
  readonly routes: Map<string, Route>;
  readonly made: Map<string, object>;
}

// The methods are thin: on a microcontroller each closure carries a copy of its code, so the
// work is in the module functions below, made once.
export function createRpcDispatcher(options: RpcDispatcherOptions): RpcDispatcher {
  const state: DispatcherState = { codec: options.codec, runner: options.runner, services: options.services, routes: new Map(), made: new Map() };
  return {
    serves: (path) => findRoute(state, path) !== undefined,
    start: (request) => startCall(state, request),
  };
}

function handlersOf(state: DispatcherState, service: string): Record<string, unknown> | undefined {
  const make = Object.prototype.hasOwnProperty.call(state.services, service) ? state.services[service] : undefined;
  if (make === undefined) return undefined;
  let handlers = state.made.get(service);
  if (handlers === undefined) {
    handlers = make();
    state.made.set(service, handlers);
  }
  return handlers as Record<string, unknown>;
}

function findRoute(state: DispatcherState, path: string): Route | undefined {
  const known = state.routes.get(path);
  if (known !== undefined) return known;
  const method = state.codec.method(path);
  const handlers = method && handlersOf(state, method.service);
  const handler = method && handlers?.[method.localName];
  const found = method && handlers && typeof handler === "function" ? { input: method.input, output: method.output, handlers, handler: handler as Handler } : undefined;
  if (found) state.routes.set(path, found);
  return found;
}

function unknownMethod(state: DispatcherState, path: string): string {
  const [, service = "", method = ""] = path.split("/");
  const served = state.codec.hasService(service) && handlersOf(state, service) !== undefined;
  return served ? `unknown method ${method} for service ${service}` : `unknown service ${service}`;
}

function startCall(state: DispatcherState, request: DispatchRequest): DispatchedCall {
  const { codec } = state;
  const route = findRoute(state, request.path);
  if (route === undefined) return finished(responseBody(undefined, Code.Unimplemented, unknownMethod(state, request.path)));
  let message: Record<string, unknown>;
  let op: RunningOperation;
  try {
    try {
      message = codec.decode(route.input, requestMessage(request.body));
    } catch (thrown) {
      throw thrown instanceof SvcError ? thrown : new SvcError(Code.InvalidArgument, `the request could not be read: ${errorMessage(thrown)}`);
    }
    op = state.runner.begin({ method: request.path, sessionId: request.sessionId ?? "", args: () => codec.toJson(route.input, message) });
  } catch (thrown) {
    return finished(errorBody(thrown));
  }
  const done = runOperation(op, (call) => route.handler.call(route.handlers, message, call)).then((answer) => answerBody(codec, route.output, answer), errorBody);
  return {
    done,
    cancel: (code = Code.Canceled, text = "the client went away") => op.cancel(new SvcError(code, text)),
  };
}

/** The response body of a call that answered. */
function answerBody(codec: WireCodec, output: number, answer: object): Uint8Array {
  let bytes: Uint8Array;
  try {
    bytes = codec.encode(output, answer);
  } catch (thrown) {
    return responseBody(undefined, Code.Internal, `the answer could not be sent: ${errorMessage(thrown)}`);
  }
  return responseBody(bytes, OK);
}

// The connect interceptor that makes every call an operation: it reads the session from the
// `viam-sid` header (an ended session is refused with INVALID_ARGUMENT "SESSION_EXPIRED"),
// registers the call with its request (as JSON, produced only if someone lists operations) for
// as long as it runs, streams included, and gives the handler a signal that aborts when the
// operation is cancelled, whoever cancels it: CancelOperation, StopAll, the client going away,
// its deadline, or the server shutting down. The answer carries the operation id in `opid`.
import { toJson, type Message } from "@bufbuild/protobuf";
import { ConnectError, createContextKey, type HandlerContext, type Interceptor, type StreamRequest, type StreamResponse, type UnaryRequest, type UnaryResponse } from "@connectrpc/connect";
import { runOperation, type CallRunner, type RunningOperation } from "../../../../core/index.js";
import { fromConnectError, SESSION_HEADER, toConnectError } from "../rpc/index.js";
import { callControlKey, type CallControl } from "../transport/index.js";

/** Response header (and error metadata) naming the call's operation id. */
export const OPERATION_ID_HEADER = "opid";

/**
 * Long-lived plumbing rather than work a user started, as the reference server treats them:
 * WebRTC signaling and server reflection are not operations.
 */
export const UNTRACKED_METHOD_PREFIXES: readonly string[] = [
  "/proto.rpc.webrtc.v1.SignalingService/",
  "/grpc.reflection.v1alpha.ServerReflection/",
  "/grpc.reflection.v1.ServerReflection/",
];

type Next = Parameters<Interceptor>[0];

const operationKey = createContextKey<RunningOperation | undefined>(undefined, { description: "svc operation" });

/** The operation (which is the call's CallInfo) the interceptor started for this call, if it ran. */
export function operationOf(context: HandlerContext): RunningOperation | undefined {
  return context.values.get(operationKey);
}

export interface CallInterceptorOptions {
  runner: CallRunner;
  /** Method path prefixes left alone; UNTRACKED_METHOD_PREFIXES by default. */
  untracked?: readonly string[];
}

export function createCallInterceptor(options: CallInterceptorOptions): Interceptor {
  const { runner } = options;
  const untracked = options.untracked ?? UNTRACKED_METHOD_PREFIXES;

  // Each method's path, and whether it is tracked, worked out once.
  const paths = new WeakMap<object, string | undefined>();
  const trackedPath = (service: { typeName: string }, rpc: { name: string }): string | undefined => {
    if (paths.has(rpc)) return paths.get(rpc);
    const path = `/${service.typeName}/${rpc.name}`;
    const tracked = untracked.some((prefix) => path.startsWith(prefix)) ? undefined : path;
    paths.set(rpc, tracked);
    return tracked;
  };

  return (next) => (req) => {
    const method = trackedPath(req.service, req.method);
    if (method === undefined) return next(req);
    return req.stream ? tracedStream(next, req, method) : tracedUnary(next, req, method);
  };

  // Not async: every call of the machine runs through here, and one `then` is the whole cost.
  function tracedUnary(next: Next, req: UnaryRequest, method: string): Promise<UnaryResponse> {
    const sessionId = req.header.get(SESSION_HEADER) ?? "";
    const input = req.method.input;
    const message = req.message;
    let op: RunningOperation;
    try {
      op = begin(runner, method, sessionId, () => toJson(input, message));
    } catch (thrown) {
      return Promise.reject(thrown);
    }
    const control = req.contextValues.get(callControlKey);
    // On the lean path the call's own control carries cancellation both ways, no signal made.
    const link = control ? controlLink(control, op) : linkSignal(req.signal, op);
    req.contextValues.set(operationKey, op);
    return runOperation(op, () => next(link.signal ? { ...req, signal: link.signal } : req) as Promise<UnaryResponse>).then(
      (res) => {
        link.release();
        res.header.set(OPERATION_ID_HEADER, op.id);
        return res;
      },
      (thrown: unknown) => {
        link.release();
        throw labelled(thrown, op.id);
      },
    );
  }

  async function tracedStream(next: Next, req: StreamRequest, method: string): Promise<StreamResponse | UnaryResponse> {
    const sessionId = req.header.get(SESSION_HEADER) ?? "";
    const input = req.method.input;
    // A stream's request is read by the handler; the operation lists the first message once read.
    let first: Message | undefined;
    const source = req.message;
    async function* tapped() {
      for await (const m of source) {
        first ??= m;
        yield m;
      }
    }
    const op = begin(runner, method, sessionId, () => (first === undefined ? {} : toJson(input, first)));
    const link = linkSignal(req.signal, op);
    req.contextValues.set(operationKey, op);
    const end = () => {
      op.finish();
      link.release();
    };
    let res;
    try {
      res = await next({ ...req, message: tapped(), signal: link.signal ?? req.signal });
    } catch (thrown) {
      end();
      throw labelled(op.cancelReason() ?? thrown, op.id);
    }
    res.header.set(OPERATION_ID_HEADER, op.id);
    if (!res.stream) {
      end();
      return res;
    }
    return { ...res, message: followStream(res.message, op, end) };
  }
}

function begin(runner: CallRunner, method: string, sessionId: string, args: () => unknown): RunningOperation {
  try {
    return runner.begin({ method, sessionId, args });
  } catch (thrown) {
    throw toConnectError(thrown);
  }
}

// The operation ends with the response stream: when it is drained, fails, or the client stops reading.
async function* followStream<T>(messages: AsyncIterable<T>, op: RunningOperation, end: () => void): AsyncGenerator<T> {
  try {
    for await (const m of messages) yield m;
  } catch (thrown) {
    throw labelled(op.cancelReason() ?? thrown, op.id);
  } finally {
    end();
  }
  const reason = op.cancelReason();
  if (reason) throw labelled(reason, op.id);
}

/**
 * The signal the handler sees: aborted when the operation is cancelled. The transport's own
 * signal (client gone, deadline, shutdown) cancels the operation, so every source goes one way.
 */
function linkSignal(transport: AbortSignal, op: RunningOperation): { signal?: AbortSignal; release(): void } {
  const controller = new AbortController();
  op.onCancel(() => controller.abort(toConnectError(op.cancelReason())));
  const onAbort = () => op.cancel(fromConnectError(transport.reason, "the call was cancelled"));
  if (transport.aborted) onAbort();
  else transport.addEventListener("abort", onAbort, { once: true });
  return { signal: controller.signal, release: () => transport.removeEventListener("abort", onAbort) };
}

function controlLink(control: CallControl, op: RunningOperation): { signal?: AbortSignal; release(): void } {
  op.onCancel(() => control.abort(toConnectError(op.cancelReason())));
  control.onTransportAbort((reason) => op.cancel(fromConnectError(reason, "the call was cancelled")));
  return { release: noRelease };
}

const noRelease = () => {};

function labelled(thrown: unknown, id: string): ConnectError {
  const error = toConnectError(thrown);
  error.metadata.set(OPERATION_ID_HEADER, id);
  return error;
}

// The one place API calls are counted: an Interceptor that sees every call (put it first, so
// refused calls count too) and keeps, by method, the calls, the errors by code and the latencies
// since start. -output-telemetry prints from it and FTDC records from it; listeners hear each
// call as it ends (telemetry's call spans).
import { ConnectError, type Interceptor, type StreamResponse } from "@connectrpc/connect";
import { Code } from "../../../../core/index.js";
import { createLatencyHistogram, type LatencyHistogram } from "./latency-histogram.js";

export interface MethodCalls {
  count: number;
  errors: number;
  /** Errors by code. */
  codes: Map<Code, number>;
  latency: LatencyHistogram;
  /** Milliseconds summed over every call, for means over any span of time. */
  latencySumMs: number;
}

export type CallListener = (method: string, startMs: number, durationMs: number, code: Code | undefined) => void;

export interface CallCounter {
  readonly interceptor: Interceptor;
  /** Counts a finished call; `code` is undefined for a success. */
  record(method: string, startMs: number, durationMs: number, code?: Code): void;
  /** By method ("/viam.robot.v1.RobotService/GetStatus"), in the order first seen. */
  readonly methods: ReadonlyMap<string, MethodCalls>;
  onCall(listener: CallListener): void;
}

export interface CallCounterOptions {
  /** Wall clock in milliseconds, with fractions. Default performance.timeOrigin + performance.now(). */
  now?: () => number;
}

export function createCallCounter(options: CallCounterOptions = {}): CallCounter {
  const now = options.now ?? (() => performance.timeOrigin + performance.now());
  const methods = new Map<string, MethodCalls>();
  const listeners: CallListener[] = [];

  const record = (method: string, startMs: number, durationMs: number, code?: Code) => {
    let stats = methods.get(method);
    if (!stats) {
      stats = { count: 0, errors: 0, codes: new Map(), latency: createLatencyHistogram(), latencySumMs: 0 };
      methods.set(method, stats);
    }
    stats.count++;
    stats.latency.record(durationMs);
    stats.latencySumMs += durationMs;
    if (code !== undefined) {
      stats.errors++;
      stats.codes.set(code, (stats.codes.get(code) ?? 0) + 1);
    }
    for (const listener of listeners) listener(method, startMs, durationMs, code);
  };

  const interceptor: Interceptor = (next) => async (req) => {
    const method = `/${req.service.typeName}/${req.method.name}`;
    const start = now();
    let res;
    try {
      res = await next(req);
    } catch (error) {
      record(method, start, now() - start, ConnectError.from(error).code);
      throw error;
    }
    if (!res.stream) {
      record(method, start, now() - start);
      return res;
    }
    // A streamed answer ends when its last message is sent, not when the handler returns.
    return { ...res, message: observeStream(res.message, (code) => record(method, start, now() - start, code)) } as StreamResponse;
  };

  return { interceptor, record, methods, onCall: (listener) => void listeners.push(listener) };
}

async function* observeStream<T>(messages: AsyncIterable<T>, done: (code: Code | undefined) => void): AsyncIterable<T> {
  let outcome: Code | undefined = Code.Canceled;
  try {
    yield* messages;
    outcome = undefined;
  } catch (error) {
    outcome = ConnectError.from(error).code;
    throw error;
  } finally {
    done(outcome);
  }
}

// -output-telemetry: metrics and spans printed as JSON lines on stdout. Metrics (every call by
// method with its count, errors by code and latency percentiles since start; resources by
// state) are printed periodically and at exit. Spans (each call, and whatever the machine wraps
// in `span()`, reconfigurations above all) carry their start, duration and outcome. Call spans
// wait for the next metrics line and are capped per period, so a busy server is not slowed by
// its own telemetry; the line says how many were dropped.
import type { Interceptor } from "@connectrpc/connect";
import { codeName, errorMessage, type Code } from "../../../../core/index.js";
import { createCallCounter, type CallCounter } from "./call-counter.js";

export type SpanAttributes = Record<string, string | number | boolean>;

export interface TelemetryOptions {
  /** Where lines go. Default: process.stdout. */
  write?: (line: string) => void;
  /** Between metrics lines. Default 10 s. */
  intervalMs?: number;
  /** Resource counts by state ("ready": 3, "failed": 1) at the time of each metrics line. */
  resourceStates?: () => Record<string, number>;
  /** Call spans printed per period at most. Default 1000. */
  maxCallSpansPerInterval?: number;
  /** Wall clock in milliseconds, with fractions. Default performance.timeOrigin + performance.now(). */
  now?: () => number;
  /** The server's call counter, when others read it too; one of its own otherwise. */
  calls?: CallCounter;
}

export interface Telemetry {
  /** Records every call it sees: put it first, so refused calls count too. */
  readonly interceptor: Interceptor;
  /** Runs `fn` as a span named `name` (printed at once) and returns what it returns. */
  span<T>(name: string, fn: () => T | Promise<T>, attributes?: SpanAttributes): Promise<T>;
  /** Starts a span named `name`; calling what it returns ends it (with an error, if given) and prints it. */
  startSpan(name: string, attributes?: SpanAttributes): (error?: string) => void;
  /** Counts a finished call; `code` is undefined for a success. */
  recordCall(method: string, startMs: number, durationMs: number, code?: Code): void;
  /** Prints the metrics line (and pending call spans) now. */
  flush(): void;
  /** Prints a last time and stops the timer. */
  close(): void;
}

export function createTelemetry(options: TelemetryOptions = {}): Telemetry {
  const write = options.write ?? ((line: string) => void process.stdout.write(line));
  const now = options.now ?? (() => performance.timeOrigin + performance.now());
  const maxCallSpans = options.maxCallSpansPerInterval ?? 1000;
  let pendingSpans: string[] = [];
  let droppedSpans = 0;
  let closed = false;

  const emit = (record: object) => write(`${JSON.stringify(record)}\n`);
  const spanRecord = (name: string, startMs: number, durationMs: number, error: string | undefined, attributes?: SpanAttributes) => ({
    type: "span",
    name,
    start: new Date(startMs).toISOString(),
    duration_ms: round(durationMs),
    outcome: error === undefined ? "ok" : "error",
    ...(error === undefined ? {} : { error }),
    ...(attributes && Object.keys(attributes).length > 0 ? { attributes } : {}),
  });

  const calls = options.calls ?? createCallCounter({ now });
  calls.onCall((method, startMs, durationMs, code) => {
    if (closed) return;
    const codeText = code === undefined ? undefined : codeName(code);
    if (pendingSpans.length < maxCallSpans) {
      const attributes = codeText === undefined ? undefined : { code: codeText };
      pendingSpans.push(JSON.stringify(spanRecord(`call ${method}`, startMs, durationMs, codeText, attributes)));
    } else {
      droppedSpans++;
    }
  });

  const telemetry: Telemetry = {
    interceptor: calls.interceptor,
    async span(name, fn, attributes) {
      const end = telemetry.startSpan(name, attributes);
      try {
        const result = await fn();
        end();
        return result;
      } catch (error) {
        end(errorMessage(error));
        throw error;
      }
    },
    startSpan(name, attributes) {
      const start = now();
      return (error) => {
        if (!closed) emit(spanRecord(name, start, now() - start, error, attributes));
      };
    },
    recordCall(method, startMs, durationMs, code) {
      calls.record(method, startMs, durationMs, code);
    },
    flush() {
      const spans = pendingSpans;
      pendingSpans = [];
      if (spans.length > 0) write(`${spans.join("\n")}\n`);
      const byMethod: Record<string, object> = {};
      for (const [method, stats] of [...calls.methods.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        const codes: Record<string, number> = {};
        for (const [code, count] of stats.codes) codes[codeName(code)] = count;
        byMethod[method] = { count: stats.count, errors: stats.errors, codes, latency_ms: stats.latency.summary() };
      }
      emit({
        type: "metrics",
        time: new Date(now()).toISOString(),
        calls: byMethod,
        resources: options.resourceStates?.() ?? {},
        spans_dropped: droppedSpans,
      });
      droppedSpans = 0;
    },
    close() {
      if (closed) return;
      clearInterval(timer);
      telemetry.flush();
      closed = true;
    },
  };

  const timer = setInterval(() => telemetry.flush(), options.intervalMs ?? 10_000);
  timer.unref();
  return telemetry;
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

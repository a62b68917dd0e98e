// What the engine writes: one structured entry per log line, handed to a sink. The engine never
// formats text; a platform's sink decides between JSON lines, a terminal layout or an upload queue.
import type { LogLevel } from "./levels.js";

export type LogFields = Readonly<Record<string, unknown>>;

export interface LogEntry {
  /** Milliseconds from the engine's clock (on Linux, since the Unix epoch). */
  time: number;
  level: LogLevel;
  /** Full dotted name of the logger, e.g. `rdk.resource_manager.rdk:component:motor/left`. */
  logger: string;
  message: string;
  fields: LogFields;
}

export interface LogSink {
  write(entry: LogEntry): void;
}

/** Shared by every entry logged without fields, so such calls allocate no field object. */
export const NO_FIELDS: LogFields = Object.freeze({});

/** One sink that writes every entry to each of `sinks` in turn. */
export function combineSinks(...sinks: LogSink[]): LogSink {
  if (sinks.length === 1) return sinks[0]!;
  return {
    write(entry) {
      for (const sink of sinks) sink.write(entry);
    },
  };
}

/** A sink that keeps what it is given, for tests and scenarios. */
export interface CollectingSink extends LogSink {
  readonly entries: LogEntry[];
}

export function createCollectingSink(): CollectingSink {
  const entries: LogEntry[] = [];
  return {
    entries,
    write(entry) {
      entries.push(entry);
    },
  };
}

// A module's stdout and stderr, line by line, into its loggers. A line the module SDK wrote is
// a JSON object with `level` and `msg` and keeps its level and fields; any other stdout line is
// info, and stderr lines are errors on the `<module>.stderr` logger, which never de-duplicates
// (a crash's trace is never hidden). The last stderr lines are kept for error messages. A line
// is at most MAX_LINE_BYTES: a module writing megabytes without a newline gets its first 64 KiB
// logged, the rest dropped and counted, so what it writes never piles up in the server.
import type { Readable } from "node:stream";
import type { LogLevel } from "../../../core/index.js";
import { followLines, MAX_OUTPUT_LINE_BYTES } from "../system/index.js";

export interface ModuleLoggers {
  log(level: LogLevel, message: string, fields?: Record<string, unknown>): void;
  stderr(message: string): void;
}

export const STDERR_TAIL_LINES = 20;
/** The longest line taken from a module's output; the rest of a longer one is dropped. */
export const MAX_LINE_BYTES = MAX_OUTPUT_LINE_BYTES;

const levels = new Set(["debug", "info", "warn", "error"]);

/** The level, message and fields of an SDK log line; undefined for any other text. */
export function parseModuleLogLine(line: string): { level: LogLevel; message: string; fields: Record<string, unknown> } | undefined {
  if (!line.startsWith("{")) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
  const { level, msg, ...fields } = parsed as Record<string, unknown>;
  if (typeof level !== "string" || !levels.has(level) || typeof msg !== "string") return undefined;
  return { level: level as LogLevel, message: msg, fields };
}

export interface ModuleOutput {
  /** The last lines the module wrote on stderr, oldest first. */
  stderrTail(): string[];
}

export function followModuleOutput(stdout: Readable, stderr: Readable, loggers: ModuleLoggers): ModuleOutput {
  const tail: string[] = [];
  const dropped = (stream: string) => (bytes: number) =>
    loggers.log(
      "warn",
      `the module wrote a line longer than ${MAX_LINE_BYTES} bytes on ${stream}: its first ${MAX_LINE_BYTES} bytes are logged, the next ${bytes} were dropped`,
      { stream, dropped_bytes: bytes },
    );
  followLines(stdout, MAX_LINE_BYTES, (line) => {
    if (line === "") return;
    const entry = parseModuleLogLine(line);
    if (entry) loggers.log(entry.level, entry.message, entry.fields);
    else loggers.log("info", line);
  }, dropped("stdout"));
  followLines(stderr, MAX_LINE_BYTES, (line) => {
    if (line === "") return;
    tail.push(line);
    if (tail.length > STDERR_TAIL_LINES) tail.shift();
    const entry = parseModuleLogLine(line);
    if (entry) loggers.log(entry.level, entry.message, entry.fields);
    else loggers.stderr(line);
  }, dropped("stderr"));
  return { stderrTail: () => tail.slice() };
}

// A module's stdout and stderr, line by line, into its loggers. A line the module SDK wrote is
// a JSON object with `level` and `msg` and keeps its level and fields; any other stdout line is
// info, and stderr lines are errors on the `<module>.stderr` logger, which never de-duplicates
// (a crash's trace is never hidden). The last stderr lines are kept for error messages. A line
// is at most MAX_LINE_BYTES: a module writing megabytes without a newline gets its first 64 KiB
// logged, the rest dropped and counted, so what it writes never piles up in the server.
import type { Readable } from "node:stream";
import type { LogLevel } from "../../../core/index.js";

export interface ModuleLoggers {
  log(level: LogLevel, message: string, fields?: Record<string, unknown>): void;
  stderr(message: string): void;
}

export const STDERR_TAIL_LINES = 20;
/** The longest line taken from a module's output; the rest of a longer one is dropped. */
export const MAX_LINE_BYTES = 64 * 1024;

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

/**
 * Calls `onLine` with each line of `input` (without "\n" or "\r\n"). A line longer than
 * `maxBytes` is handed on at `maxBytes`; the rest of it is dropped, and `onDropped` told how
 * many bytes when the line ends. At most `maxBytes` of a line are ever held.
 */
export function followLines(input: Readable, maxBytes: number, onLine: (line: string) => void, onDropped: (bytes: number) => void): void {
  let parts: Buffer[] = [];
  let held = 0;
  let dropping = -1;
  const emit = () => {
    let line = Buffer.concat(parts, held).toString("utf8");
    if (line.endsWith("\r")) line = line.slice(0, -1);
    parts = [];
    held = 0;
    onLine(line);
  };
  input.on("data", (chunk: Buffer) => {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(10, start);
      const end = newline < 0 ? chunk.length : newline;
      if (dropping >= 0) {
        dropping += end - start;
      } else {
        const room = maxBytes - held;
        if (end - start <= room) {
          parts.push(chunk.subarray(start, end));
          held += end - start;
        } else {
          parts.push(chunk.subarray(start, start + room));
          held += room;
          emit();
          dropping = end - start - room;
        }
      }
      if (newline < 0) break;
      if (dropping >= 0) {
        onDropped(dropping);
        dropping = -1;
      } else {
        emit();
      }
      start = newline + 1;
    }
  });
  input.on("end", () => {
    if (dropping >= 0) onDropped(dropping);
    else if (held > 0) emit();
  });
}

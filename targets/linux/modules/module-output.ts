// A module's stdout and stderr, line by line, into its loggers. A line the module SDK wrote is
// a JSON object with `level` and `msg` and keeps its level and fields; any other stdout line is
// info, and stderr lines are errors on the `<module>.stderr` logger, which never de-duplicates
// (a crash's trace is never hidden). The last stderr lines are kept for error messages.
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import type { LogLevel } from "../../../core/index.js";

export interface ModuleLoggers {
  log(level: LogLevel, message: string, fields?: Record<string, unknown>): void;
  stderr(message: string): void;
}

export const STDERR_TAIL_LINES = 20;

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
  createInterface({ input: stdout, crlfDelay: Infinity }).on("line", (line) => {
    if (line === "") return;
    const entry = parseModuleLogLine(line);
    if (entry) loggers.log(entry.level, entry.message, entry.fields);
    else loggers.log("info", line);
  });
  createInterface({ input: stderr, crlfDelay: Infinity }).on("line", (line) => {
    if (line === "") return;
    tail.push(line);
    if (tail.length > STDERR_TAIL_LINES) tail.shift();
    const entry = parseModuleLogLine(line);
    if (entry) loggers.log(entry.level, entry.message, entry.fields);
    else loggers.stderr(line);
  });
  return { stderrTail: () => tail.slice() };
}

// A module's logger: one JSON object a line on stdout ({"level","msg",...fields}), which
// svc-server reads back into the module's logger with level and fields intact. Lines under the
// level svc-server started the module with are not written at all.
import type { LoggerLike, LogLevel } from "../../../core/index.js";

export interface ModuleLogger extends LoggerLike {
  /** A logger whose lines carry `logger: <name>` (a resource's, say). */
  child(name: string): ModuleLogger;
}

const rank: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

export function createModuleLogger(level: LogLevel, write: (line: string) => void = (line) => process.stdout.write(line), name?: string): ModuleLogger {
  const at = (lineLevel: LogLevel) => (message: string, fields?: Record<string, unknown>) => {
    if (rank[lineLevel] < rank[level]) return;
    const entry: Record<string, unknown> = { ...fields, level: lineLevel, msg: message };
    if (name !== undefined) entry.logger = name;
    let line: string;
    try {
      line = JSON.stringify(entry);
    } catch {
      line = JSON.stringify({ level: lineLevel, msg: message, logger: name });
    }
    write(`${line}\n`);
  };
  return {
    debug: at("debug"),
    info: at("info"),
    warn: at("warn"),
    error: at("error"),
    child: (child) => createModuleLogger(level, write, name === undefined ? child : `${name}.${child}`),
  };
}

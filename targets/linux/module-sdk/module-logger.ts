// A module's logger: one JSON object a line on stdout ({"level","msg",...fields}), which
// svc-server reads back into the module's logger with level and fields intact. Lines under the
// module's level are not written at all; the level is the one svc-server started the module with
// until svc-server sends another (the module and its children share it).
import type { LoggerLike, LogLevel } from "../../../core/index.js";

export interface ModuleLogger extends LoggerLike {
  /** A logger whose lines carry `logger: <name>` (a resource's, say). */
  child(name: string): ModuleLogger;
  /** The level lines must reach to be written. */
  level(): LogLevel;
  /** Changes the level of this logger, its parent and every child alike. */
  setLevel(level: LogLevel): void;
}

const rank: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

interface Threshold {
  level: LogLevel;
  rank: number;
}

export function createModuleLogger(level: LogLevel, write: (line: string) => void = (line) => process.stdout.write(line), name?: string): ModuleLogger {
  return loggerOn({ level, rank: rank[level] }, write, name);
}

function loggerOn(threshold: Threshold, write: (line: string) => void, name: string | undefined): ModuleLogger {
  const at = (lineLevel: LogLevel) => {
    const lineRank = rank[lineLevel];
    return (message: string, fields?: Record<string, unknown>) => {
      if (lineRank < threshold.rank) return;
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
  };
  return {
    debug: at("debug"),
    info: at("info"),
    warn: at("warn"),
    error: at("error"),
    child: (child) => loggerOn(threshold, write, name === undefined ? child : `${name}.${child}`),
    level: () => threshold.level,
    setLevel(next) {
      threshold.level = next;
      threshold.rank = rank[next];
    },
  };
}

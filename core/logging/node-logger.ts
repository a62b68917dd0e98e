// One named logger of the log engine: the face code logs through, over the engine's node for that
// name. The node holds the threshold worked out when a configuration was applied, so a call below
// it costs one comparison; a call at or above it goes to the engine's `emit`.
import type { LevelChoice } from "./level-plan.js";
import { DEBUG, ERROR, INFO, WARN, levelRank, type LogLevel } from "./levels.js";
import type { LogFields } from "./log-entry.js";

export interface Logger {
  readonly name: string;
  /** The level this logger writes at under the current configuration. */
  level(): LogLevel;
  /** Whether a call at `level` would be written (to skip building costly fields). */
  enabled(level: LogLevel): boolean;
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  log(level: LogLevel, message: string, fields?: LogFields): void;
  /** The sub-logger `<name>.<suffix>`; it follows its parent's resource or module level, if any. */
  child(suffix: string): Logger;
}

/** What the engine keeps per logger name. */
export interface LoggerNode {
  readonly name: string;
  readonly parent: LoggerNode | undefined;
  readonly deduplicate: boolean;
  choice: LevelChoice;
  threshold: number;
  dedupOn: boolean;
  readonly children: Map<string, LoggerNode>;
  logger: Logger;
}

export type Emit = (node: LoggerNode, rank: number, message: string, fields: LogFields | undefined) => void;

export function createNodeLogger(node: LoggerNode, emit: Emit, child: (suffix: string) => Logger): Logger {
  return {
    name: node.name,
    level: () => node.choice.level,
    enabled: (level) => levelRank(level) >= node.threshold,
    debug(message, fields) {
      if (DEBUG >= node.threshold) emit(node, DEBUG, message, fields);
    },
    info(message, fields) {
      if (INFO >= node.threshold) emit(node, INFO, message, fields);
    },
    warn(message, fields) {
      if (WARN >= node.threshold) emit(node, WARN, message, fields);
    },
    error(message, fields) {
      if (ERROR >= node.threshold) emit(node, ERROR, message, fields);
    },
    log(level, message, fields) {
      const rank = levelRank(level);
      if (rank >= 0 && rank >= node.threshold) emit(node, rank, message, fields);
    },
    child,
  };
}

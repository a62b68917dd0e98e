// The four log levels, their order and their spelling in configurations. Levels are compared as
// small integers (the index in LOG_LEVELS) so that a logger's threshold check is one comparison.
import type { LogLevel } from "../config/index.js";

export type { LogLevel };

/** From least to most severe; a logger at level L writes L and everything after it. */
export const LOG_LEVELS: readonly LogLevel[] = ["debug", "info", "warn", "error"];

export const DEFAULT_LOG_LEVEL: LogLevel = "info";

export const DEBUG = 0;
export const INFO = 1;
export const WARN = 2;
export const ERROR = 3;

/** The level's rank: debug 0, info 1, warn 2, error 3. */
export function levelRank(level: LogLevel): number {
  return LOG_LEVELS.indexOf(level);
}

/** Reads a level as configurations write it, case-insensitively ("Debug" is debug). */
export function parseLogLevel(text: unknown): LogLevel | undefined {
  if (typeof text !== "string") return undefined;
  const lower = text.trim().toLowerCase();
  for (const level of LOG_LEVELS) if (level === lower) return level;
  return undefined;
}

export function levelProblem(text: unknown): string {
  return `must be one of ${LOG_LEVELS.map((l) => JSON.stringify(l)).join(", ")} (found ${JSON.stringify(text)})`;
}

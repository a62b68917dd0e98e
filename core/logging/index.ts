// Public face of core/logging: levels, log rules and their precedence, the log engine with its
// de-duplication, and secret masking for configurations.
export { LOG_LEVELS, DEFAULT_LOG_LEVEL, parseLogLevel } from "./levels.js";
export { NO_FIELDS, combineSinks, createCollectingSink } from "./log-entry.js";
export type { LogEntry, LogFields, LogSink, CollectingSink } from "./log-entry.js";
export { RESOURCE_LOGGER_PREFIX, resourceLoggerName, moduleLoggerName, moduleStderrLoggerName } from "./logger-names.js";
export { compileLevelPlan } from "./level-plan.js";
export type { LoggingSettings, LevelPlan, LevelChoice, LevelSource } from "./level-plan.js";
export { NOISY_MESSAGE_THRESHOLD, NOISY_WINDOW_MS, MAX_TRACKED_MESSAGES } from "./deduplicator.js";
export { createLogEngine } from "./log-engine.js";
export type { LogEngine, LogEngineOptions, Logger, LoggerOptions } from "./log-engine.js";
export { MASK, SECRET_FIELD_NAMES, SECRET_PATHS, isSecretPath, maskSecretFields, maskSecrets } from "./secrets.js";
export { formatConfigDiff, formatPath } from "./config-diff.js";
export type { ConfigDiffOptions } from "./config-diff.js";
export { loggingSettingsOf } from "./settings-from-config.js";
export * from "./log-upload-limits.js";

// Public face of targets/linux/logging: the engine's Linux sinks, -log-file rotation and the
// offline log queue for the cloud.
export { createLinuxLogging, LOGGING_LOGGER } from "./linux-logging.js";
export type { LinuxLogEngine, LinuxLogging, LinuxLoggingOptions } from "./linux-logging.js";
export { createRecentLogs, DEFAULT_RECENT_LOGS } from "./recent-logs.js";
export type { RecentLogEntry, RecentLogs, RecentLogsPage } from "./recent-logs.js";
export { createNodeClock } from "./node-clock.js";
export { createPinoSink } from "./pino-sink.js";
export type { PinoSink } from "./pino-sink.js";
export { createPrettySink } from "./pretty-sink.js";
export { formatPrettyLine } from "./pretty-format.js";
export { createRotatingFile, LogFileError, DEFAULT_LOG_FILE_MAX_BYTES, DEFAULT_LOG_FILE_MAX_FILES } from "./rotating-file.js";
export type { RotatingFile, RotatingFileOptions } from "./rotating-file.js";
export { openOfflineLogQueue, DEFAULT_QUEUE_MAX_BYTES, DEFAULT_QUEUE_MAX_ENTRIES } from "./offline-log-queue.js";
export type { OfflineLogQueue, OfflineLogQueueOptions, LogBatch, QueuedLogEntry } from "./offline-log-queue.js";
export type { TextStream } from "./text-stream.js";
export { createLogUploader, retryWait, BATCH_BYTES, DROPPED_LOGGER } from "./log-uploader.js";
export type { LogUploader, LogUploaderOptions } from "./log-uploader.js";
export { toWireLogEntry, fitText } from "./wire-log-entry.js";

// Logging for the Linux programs, assembled: the core's engine writing to pino (JSON lines) or to
// a readable terminal layout, to -log-file with rotation, and optionally into the offline queue
// for the cloud, with the newest entries kept in memory for the control page's log view. The
// server's main calls createLinuxLogging once at start-up.
import pino from "pino";
import {
  combineSinks,
  createLogEngine,
  type LogEngine,
  type Logger,
  type LoggingSettings,
  type LogSink,
} from "../../../core/index.js";
import type { Clock } from "../../../core/clock.js";
import { createNodeClock } from "./node-clock.js";
import { createPinoSink } from "./pino-sink.js";
import { createPrettySink } from "./pretty-sink.js";
import { createRecentLogs, type RecentLogs } from "./recent-logs.js";
import { createRotatingFile, type RotatingFile } from "./rotating-file.js";
import type { TextStream } from "./text-stream.js";

export interface LinuxLoggingOptions {
  /** -log-file: JSON lines to this file, rotated by size, instead of stdout; LogFileError when it cannot be opened. */
  logFile?: string;
  /** Rotation bounds of the log file; defaults 10 MiB and 5 rotated files. */
  rotation?: { maxBytes?: number; maxFiles?: number };
  /** -debug: debug everywhere, whatever the configuration says. */
  debug?: boolean;
  /** Readable lines instead of JSON on stdout. Default: whether stdout is a terminal. */
  pretty?: boolean;
  /** Logging settings to start with, before a configuration is read. */
  settings?: LoggingSettings;
  /** Also hand every written entry to this sink (the offline log queue for the cloud). */
  alsoTo?: LogSink;
  clock?: Clock;
  stdout?: TextStream & { isTTY?: boolean };
  stderr?: TextStream;
}

/** The engine, with the newest entries it wrote kept for the control page. */
export interface LinuxLogEngine extends LogEngine {
  readonly recent: RecentLogs;
}

export interface LinuxLogging {
  engine: LinuxLogEngine;
  /** The `svc` logger; parts of the program take `logger.child("networking")` and so on. */
  logger: Logger;
  /** Where lines are going now. */
  destination(): "stdout" | "file" | "stderr";
  /** Writes open de-duplication summaries and releases the log file. */
  close(): void;
}

export const LOGGING_LOGGER = "svc.logging";

export function createLinuxLogging(options: LinuxLoggingOptions = {}): LinuxLogging {
  const clock = options.clock ?? createNodeClock();
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? pino.destination({ dest: 2, sync: true });
  let file: RotatingFile | undefined;
  let fileError: Error | undefined;
  let engine: LogEngine | undefined;

  // The failure is told once, on stderr, by the engine itself (a structured error line).
  function reportFileError(): void {
    if (engine === undefined || fileError === undefined || file === undefined) return;
    engine.logger(LOGGING_LOGGER).error(`cannot write the log file; logging to stderr from now on`, {
      file: file.path,
      error: fileError.message,
    });
  }

  let sink: LogSink;
  if (options.logFile !== undefined) {
    file = createRotatingFile({
      path: options.logFile,
      maxBytes: options.rotation?.maxBytes,
      maxFiles: options.rotation?.maxFiles,
      fallback: stderr,
      onError: (error) => {
        fileError = error;
        reportFileError();
      },
    });
    sink = createPinoSink(file);
  } else if (options.pretty ?? stdout.isTTY === true) {
    sink = createPrettySink(stdout, { colour: stdout.isTTY === true });
  } else {
    sink = createPinoSink(options.stdout ?? pino.destination({ dest: 1, sync: true }));
  }
  if (options.alsoTo !== undefined) sink = combineSinks(sink, options.alsoTo);
  const recent = createRecentLogs();
  sink = combineSinks(sink, recent);

  engine = createLogEngine({ clock, sink, debug: options.debug, settings: options.settings });
  reportFileError();
  const logger = engine.logger("svc");
  const running: LinuxLogEngine = Object.assign(engine, { recent });

  return {
    engine: running,
    logger,
    destination: () => (file === undefined ? "stdout" : file.failed ? "stderr" : "file"),
    close() {
      running.close();
      file?.close();
    },
  };
}

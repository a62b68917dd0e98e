// forward_system_logs: follows the system journal (`journalctl -f -o json`) and hands the entries
// whose SYSLOG_IDENTIFIER passes the filter to a sink (the agent's offline log queue), with the
// level taken from the syslog PRIORITY. The agent's own lines are never forwarded: they are in
// the queue already. When journalctl exits, it is started again after a growing pause, resuming
// after the last entry forwarded (its cursor), so nothing is sent twice.
import { spawn, type ChildProcess } from "node:child_process";
import type { Clock, LogEntry, LogLevel, LogSink, Logger, SystemLogForwarding } from "../../../../core/index.js";
import { createNodeClock } from "../../logging/node-clock.js";

export interface JournalForwarderOptions {
  filter: SystemLogForwarding;
  sink: LogSink;
  logger?: Logger;
  /** The follow command, without the start position. Default ["journalctl", "-f", "-o", "json"]. */
  command?: readonly string[];
  /** Where the first start begins: "now" (`-n 0`, the default) or "all" (`-n all`). */
  from?: "now" | "all";
  /** Pause before restarting journalctl: doubles from initialMs up to maxMs. Defaults 1 s and 60 s. */
  backoff?: { initialMs: number; maxMs: number };
  /** Units whose lines are not forwarded. Default ["svc-agent.service"]. */
  ownUnits?: readonly string[];
  /** Real time: the restart pause, and the time of an entry that carries none. */
  clock?: Clock;
}

export interface JournalForwarder {
  /** PID of the running journalctl, if one runs. */
  readonly pid: number | undefined;
  /** Entries handed to the sink so far. */
  readonly forwarded: number;
  /** Stops following: kills journalctl by its PID and waits for it to exit. */
  stop(): Promise<void>;
}

export const LOGGER_PREFIX = "system";

export function createJournalForwarder(options: JournalForwarderOptions): JournalForwarder {
  const command = options.command ?? ["journalctl", "-f", "-o", "json"];
  const backoff = options.backoff ?? { initialMs: 1000, maxMs: 60_000 };
  const ownUnits = new Set(options.ownUnits ?? ["svc-agent.service"]);
  const passes = identifierFilter(options.filter);
  const clock = options.clock ?? createNodeClock({ keepAlive: true });
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let cursor: string | undefined;
  let pause = backoff.initialMs;
  let restartTimer: unknown;
  let stopped = false;
  let forwarded = 0;

  function start(): void {
    const position = cursor !== undefined ? [`--after-cursor=${cursor}`] : ["-n", options.from === "all" ? "all" : "0"];
    const running = spawn(command[0]!, [...command.slice(1), ...position], { stdio: ["ignore", "pipe", "pipe"] });
    child = running;
    let buffered = "";
    let stderr = "";
    running.stdout!.setEncoding("utf8");
    running.stdout!.on("data", (chunk: string) => {
      buffered += chunk;
      let newline: number;
      while ((newline = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        if (line.trim() !== "") handleLine(line);
      }
      // A healthy stream resets the pause.
      pause = backoff.initialMs;
    });
    running.stderr!.setEncoding("utf8");
    running.stderr!.on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-2000);
    });
    exited = new Promise((resolve) => {
      running.on("error", (error) => {
        options.logger?.warn("cannot run journalctl", { command: command[0], error: error.message });
      });
      running.on("close", (code, signal) => {
        if (child === running) child = undefined;
        resolve();
        if (stopped) return;
        options.logger?.warn("journalctl stopped; starting it again", { code, signal, stderr: stderr.trim(), in_ms: pause });
        restartTimer = clock.setTimeout(() => {
          restartTimer = undefined;
          if (!stopped) start();
        }, pause);
        pause = Math.min(pause * 2, backoff.maxMs);
      });
    });
  }

  function handleLine(line: string): void {
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(line) as Record<string, unknown>;
    } catch {
      options.logger?.debug("journalctl wrote a line that is not JSON (skipped)", { line: line.slice(0, 200) });
      return;
    }
    if (typeof record.__CURSOR === "string") cursor = record.__CURSOR;
    if (ownUnits.has(text(record._SYSTEMD_UNIT))) return;
    const identifier = text(record.SYSLOG_IDENTIFIER) || text(record._COMM);
    if (!passes(identifier)) return;
    options.sink.write(journalEntry(record, identifier, clock.now()));
    forwarded++;
  }

  start();
  return {
    get pid() {
      return child?.pid;
    },
    get forwarded() {
      return forwarded;
    },
    async stop() {
      stopped = true;
      if (restartTimer !== undefined) clock.clearTimeout(restartTimer);
      const running = child;
      if (running?.pid !== undefined && running.exitCode === null && running.signalCode === null) {
        process.kill(running.pid, "SIGTERM");
      }
      await exited;
    },
  };
}

/** Whether an identifier is forwarded: `all` minus the exclusions, or the listed ones. */
export function identifierFilter(filter: SystemLogForwarding): (identifier: string) => boolean {
  if (filter.all) {
    const excluded = new Set(filter.exclude);
    return (identifier) => !excluded.has(identifier);
  }
  const included = new Set(filter.include);
  return (identifier) => included.has(identifier);
}

/** syslog PRIORITY (0 emerg .. 7 debug) as a log level. */
export function levelOfPriority(priority: unknown): LogLevel {
  const value = Number(text(priority) || "6");
  if (value <= 3) return "error";
  if (value === 4) return "warn";
  if (value === 7) return "debug";
  return "info";
}

function journalEntry(record: Record<string, unknown>, identifier: string, now: number): LogEntry {
  const micros = Number(text(record.__REALTIME_TIMESTAMP));
  const fields: Record<string, unknown> = {};
  for (const [key, name] of [["_SYSTEMD_UNIT", "unit"], ["_PID", "pid"], ["_HOSTNAME", "hostname"]] as const) {
    const value = text(record[key]);
    if (value !== "") fields[name] = value;
  }
  return {
    time: Number.isFinite(micros) && micros > 0 ? Math.floor(micros / 1000) : now,
    level: levelOfPriority(record.PRIORITY),
    logger: identifier === "" ? LOGGER_PREFIX : `${LOGGER_PREFIX}.${identifier}`,
    message: text(record.MESSAGE),
    fields,
  };
}

// journald writes a field that is not valid UTF-8 as an array of bytes.
function text(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value) && value.every((b) => typeof b === "number")) return Buffer.from(value as number[]).toString("utf8");
  if (typeof value === "number") return String(value);
  return "";
}

// De-duplication of noisy log messages. A message is noisy when the same logger outputs it more
// than NOISY_MESSAGE_THRESHOLD times within one window of NOISY_WINDOW_MS, which starts at its first
// copy. The first copies are written; the next one is replaced by a notice that further copies are
// suppressed; the rest are counted; when the window ends a summary says how many copies there were.
// The key is the logger, the message and the fields; the entry's time is not part of it.
import type { Clock } from "../clock.js";
import type { LogEntry, LogFields } from "./log-entry.js";

/** Copies of one message written per window before the rest are suppressed. */
export const NOISY_MESSAGE_THRESHOLD = 3;
/** Length of a de-duplication window, from a message's first copy. */
export const NOISY_WINDOW_MS = 10_000;
/** Distinct messages tracked at once; beyond this, new messages are written without tracking. */
export const MAX_TRACKED_MESSAGES = 1000;

export interface Deduplicator {
  /** True when `entry` should be written; false when it was suppressed (or replaced by the notice). */
  admit(entry: LogEntry): boolean;
  /** Writes the summaries of windows still open and cancels every timer. */
  close(): void;
}

interface Tracked {
  first: LogEntry;
  count: number;
  windowEnd: number;
  /** Set once the message is suppressed: fires the summary at the window's end. */
  summaryTimer: unknown;
  /** The map holding this item and its key there, to forget it without looking it up again. */
  home: Map<string, Tracked>;
  key: string;
}

export function createDeduplicator(options: { clock: Clock; write: (entry: LogEntry) => void }): Deduplicator {
  const { clock, write } = options;
  // Logger name -> message -> fields -> item. Nesting, rather than one joined key, lets the
  // logger name and message (usually the same string objects every call) hash once, not per call.
  const byLogger = new Map<string, Map<string, Map<string, Tracked>>>();
  let size = 0;
  let sweepTimer: unknown;
  let closed = false;

  const windowSeconds = NOISY_WINDOW_MS / 1000;

  function forget(item: Tracked): void {
    if (item.home.delete(item.key)) size--;
  }

  function finish(item: Tracked): void {
    forget(item);
    if (item.summaryTimer !== undefined) clock.clearTimeout(item.summaryTimer);
    const { first } = item;
    const now = clock.now();
    // Normally the whole window; less when the engine closes early.
    const seconds = Math.round((now - first.time) / 100) / 10;
    write({
      time: now,
      level: first.level,
      logger: first.logger,
      message: `Message logged ${item.count} times in ${seconds} s: ${first.message}`,
      fields: first.fields,
    });
  }

  function each(visit: (item: Tracked) => void): void {
    byLogger.forEach((byMessage, logger) => {
      byMessage.forEach((byFields, message) => {
        byFields.forEach(visit);
        if (byFields.size === 0) byMessage.delete(message);
      });
      if (byMessage.size === 0) byLogger.delete(logger);
    });
  }

  // Messages that never became noisy need no timer of their own; one sweep forgets them.
  function sweep(): void {
    sweepTimer = undefined;
    const now = clock.now();
    each((item) => {
      if (item.summaryTimer === undefined && now >= item.windowEnd) forget(item);
    });
    if (size > 0) sweepTimer = clock.setTimeout(sweep, NOISY_WINDOW_MS);
  }

  function track(entry: LogEntry, key: string): void {
    let byMessage = byLogger.get(entry.logger);
    if (byMessage === undefined) byLogger.set(entry.logger, (byMessage = new Map()));
    let home = byMessage.get(entry.message);
    if (home === undefined) byMessage.set(entry.message, (home = new Map()));
    home.set(key, { first: entry, count: 1, windowEnd: entry.time + NOISY_WINDOW_MS, summaryTimer: undefined, home, key });
    size++;
    if (sweepTimer === undefined) sweepTimer = clock.setTimeout(sweep, NOISY_WINDOW_MS);
  }

  return {
    admit(entry) {
      if (closed) return true;
      const key = fieldsKey(entry.fields);
      const now = entry.time;
      let item = byLogger.get(entry.logger)?.get(entry.message)?.get(key);
      if (item !== undefined && now >= item.windowEnd) {
        if (item.summaryTimer !== undefined) finish(item);
        else forget(item);
        item = undefined;
      }
      if (item === undefined) {
        if (size < MAX_TRACKED_MESSAGES) track(entry, key);
        return true;
      }
      item.count++;
      if (item.count <= NOISY_MESSAGE_THRESHOLD) return true;
      if (item.count === NOISY_MESSAGE_THRESHOLD + 1) {
        const noisy = item;
        noisy.summaryTimer = clock.setTimeout(() => finish(noisy), noisy.windowEnd - now);
        write({
          ...entry,
          message: `Message logged ${noisy.count} times within ${windowSeconds} s; suppressing further copies until the window ends: ${entry.message}`,
        });
      }
      return false;
    },
    close() {
      closed = true;
      each((item) => {
        if (item.summaryTimer !== undefined) finish(item);
        else forget(item);
      });
      if (sweepTimer !== undefined) clock.clearTimeout(sweepTimer);
      sweepTimer = undefined;
    },
  };
}

/** The fields as text for the key: timestamps left out, errors by name and message, never throws. */
function fieldsKey(fields: LogFields): string {
  // Flat fields of plain values, the usual case, need no replacer (which costs a call per value).
  let empty = true;
  let flat = true;
  for (const key in fields) {
    empty = false;
    const value = fields[key];
    if (key === "time" || key === "timestamp" || (typeof value === "object" && value !== null) || typeof value === "bigint") {
      flat = false;
      break;
    }
  }
  if (empty) return "";
  try {
    return flat ? JSON.stringify(fields) : JSON.stringify(fields, keyReplacer);
  } catch {
    return "\u0000unserializable";
  }
}

function keyReplacer(key: string, value: unknown): unknown {
  if (key === "time" || key === "timestamp") return undefined;
  if (typeof value === "bigint") return `${value}n`;
  if (value instanceof Error) return { name: value.name, message: value.message };
  return value;
}

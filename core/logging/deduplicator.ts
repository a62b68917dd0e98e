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

/** What the de-duplicator keeps between entries. */
interface DedupState {
  readonly clock: Clock;
  readonly write: (entry: LogEntry) => void;
  // Logger name -> message -> fields -> item. Nesting, rather than one joined key, lets the
  // logger name and message (usually the same string objects every call) hash once, not per call.
  readonly byLogger: Map<string, Map<string, Map<string, Tracked>>>;
  size: number;
  sweepTimer: unknown;
  closed: boolean;
  /** `sweep` for this state, as the timer calls it. */
  readonly sweep: () => void;
}

const windowSeconds = NOISY_WINDOW_MS / 1000;

// The methods are thin: on a microcontroller each closure carries a copy of its code, so the
// work is in the module functions below, made once.
export function createDeduplicator(options: { clock: Clock; write: (entry: LogEntry) => void }): Deduplicator {
  const state: DedupState = {
    clock: options.clock,
    write: options.write,
    byLogger: new Map(),
    size: 0,
    sweepTimer: undefined,
    closed: false,
    sweep: () => sweep(state),
  };
  return {
    admit: (entry) => admit(state, entry),
    close: () => close(state),
  };
}

function forget(state: DedupState, item: Tracked): void {
  if (item.home.delete(item.key)) state.size--;
}

function finish(state: DedupState, item: Tracked): void {
  forget(state, item);
  if (item.summaryTimer !== undefined) state.clock.clearTimeout(item.summaryTimer);
  const { first } = item;
  const now = state.clock.now();
  // Normally the whole window; less when the engine closes early.
  const seconds = Math.round((now - first.time) / 100) / 10;
  state.write({
    time: now,
    level: first.level,
    logger: first.logger,
    message: `Message logged ${item.count} times in ${seconds} s: ${first.message}`,
    fields: first.fields,
  });
}

function each(state: DedupState, visit: (item: Tracked) => void): void {
  state.byLogger.forEach((byMessage, logger) => {
    byMessage.forEach((byFields, message) => {
      byFields.forEach(visit);
      if (byFields.size === 0) byMessage.delete(message);
    });
    if (byMessage.size === 0) state.byLogger.delete(logger);
  });
}

// Messages that never became noisy need no timer of their own; one sweep forgets them.
function sweep(state: DedupState): void {
  state.sweepTimer = undefined;
  const now = state.clock.now();
  each(state, (item) => {
    if (item.summaryTimer === undefined && now >= item.windowEnd) forget(state, item);
  });
  if (state.size > 0) state.sweepTimer = state.clock.setTimeout(state.sweep, NOISY_WINDOW_MS);
}

function track(state: DedupState, entry: LogEntry, key: string): void {
  let byMessage = state.byLogger.get(entry.logger);
  if (byMessage === undefined) state.byLogger.set(entry.logger, (byMessage = new Map()));
  let home = byMessage.get(entry.message);
  if (home === undefined) byMessage.set(entry.message, (home = new Map()));
  home.set(key, { first: entry, count: 1, windowEnd: entry.time + NOISY_WINDOW_MS, summaryTimer: undefined, home, key });
  state.size++;
  if (state.sweepTimer === undefined) state.sweepTimer = state.clock.setTimeout(state.sweep, NOISY_WINDOW_MS);
}

function admit(state: DedupState, entry: LogEntry): boolean {
  if (state.closed) return true;
  const key = fieldsKey(entry.fields);
  const now = entry.time;
  let item = state.byLogger.get(entry.logger)?.get(entry.message)?.get(key);
  if (item !== undefined && now >= item.windowEnd) {
    if (item.summaryTimer !== undefined) finish(state, item);
    else forget(state, item);
    item = undefined;
  }
  if (item === undefined) {
    if (state.size < MAX_TRACKED_MESSAGES) track(state, entry, key);
    return true;
  }
  item.count++;
  if (item.count <= NOISY_MESSAGE_THRESHOLD) return true;
  if (item.count === NOISY_MESSAGE_THRESHOLD + 1) {
    const noisy = item;
    noisy.summaryTimer = state.clock.setTimeout(() => finish(state, noisy), noisy.windowEnd - now);
    state.write({
      ...entry,
      message: `Message logged ${noisy.count} times within ${windowSeconds} s; suppressing further copies until the window ends: ${entry.message}`,
    });
  }
  return false;
}

function close(state: DedupState): void {
  state.closed = true;
  each(state, (item) => {
    if (item.summaryTimer !== undefined) finish(state, item);
    else forget(state, item);
  });
  if (state.sweepTimer !== undefined) state.clock.clearTimeout(state.sweepTimer);
  state.sweepTimer = undefined;
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

// Log entries between the wire (viam.common.v1.LogEntry) and the store. What a machine sends is
// checked entry by entry, and anything out of bounds is refused naming the entry and the field,
// so one runaway logger cannot fill the store or hide what it sent.
import type { JsonObject } from "@bufbuild/protobuf";
import { timestampFromMs, timestampMs } from "@bufbuild/protobuf/wkt";
import { Code, SvcError } from "../../../core/index.js";
import type { LogEntry } from "../../../proto/gen/common/v1/common_pb.js";
import type { NewLogRow } from "../storage/logs-store.js";

/** Entries one Log call may carry. */
export const MAX_LOG_BATCH = 1000;
/** Bytes (UTF-8) a field of one entry may hold. */
export const LOG_FIELD_LIMITS = { host: 256, logger_name: 256, message: 64 * 1024, stack: 64 * 1024, caller: 4 * 1024, fields: 64 * 1024 } as const;

/** The levels an entry may have, least severe first (zap's, as Viam's machines send them). */
export const LOG_LEVELS = ["debug", "info", "warn", "error", "dpanic", "panic", "fatal"] as const;
/** What `errors_only` keeps. */
export const ERROR_LEVELS: readonly string[] = ["error", "dpanic", "panic", "fatal"];

type Init<T> = Omit<T, "$typeName" | "$unknown">;

function bounded(value: string, limit: number, where: string): string {
  // A UTF-16 code unit is at most three bytes of UTF-8: most values need no counting.
  if (value.length * 3 <= limit) return value;
  const bytes = Buffer.byteLength(value, "utf8");
  if (bytes > limit) throw new SvcError(Code.InvalidArgument, `${where}: at most ${limit} bytes (got ${bytes})`);
  return value;
}

/** A level as the store keeps it; InvalidArgument naming `where` when it is none of LOG_LEVELS. */
export function logLevel(level: string, where: string): string {
  const lower = level.trim().toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(lower)) throw new SvcError(Code.InvalidArgument, `${where}: ${JSON.stringify(level.slice(0, 32))} is not a log level (${LOG_LEVELS.join(", ")})`);
  return lower;
}

/** The rows to store for a Log call's entries, each checked; `now` stands in for a missing time. */
export function rowsOf(partId: string, entries: readonly LogEntry[], now: number): NewLogRow[] {
  if (entries.length > MAX_LOG_BATCH) throw new SvcError(Code.InvalidArgument, `logs: at most ${MAX_LOG_BATCH} entries a call (got ${entries.length}); send them in several calls`);
  return entries.map((entry, i) => {
    const where = `logs[${i}]`;
    const time = entry.time === undefined ? now : timestampMs(entry.time);
    if (!Number.isSafeInteger(time) || time < 0) throw new SvcError(Code.InvalidArgument, `${where}.time: out of range`);
    const caller = entry.caller === undefined ? null : bounded(JSON.stringify(entry.caller), LOG_FIELD_LIMITS.caller, `${where}.caller`);
    return {
      part_id: partId,
      time,
      level: logLevel(entry.level, `${where}.level`),
      host: bounded(entry.host, LOG_FIELD_LIMITS.host, `${where}.host`),
      logger: bounded(entry.loggerName, LOG_FIELD_LIMITS.logger_name, `${where}.logger_name`),
      message: bounded(entry.message, LOG_FIELD_LIMITS.message, `${where}.message`),
      caller,
      stack: bounded(entry.stack, LOG_FIELD_LIMITS.stack, `${where}.stack`),
      fields: bounded(JSON.stringify(entry.fields), LOG_FIELD_LIMITS.fields, `${where}.fields`),
    };
  });
}

/** A stored entry as the wire has it. */
export function entryOf(row: NewLogRow): Init<LogEntry> {
  return {
    host: row.host,
    level: row.level,
    time: timestampFromMs(row.time),
    loggerName: row.logger,
    message: row.message,
    caller: row.caller === null ? undefined : (JSON.parse(row.caller) as JsonObject),
    stack: row.stack,
    fields: JSON.parse(row.fields) as JsonObject[],
  };
}

/** Whether an entry passes a text filter (its message contains the text, in any case). */
export function matchesFilter(row: NewLogRow, filter: string | undefined): boolean {
  return filter === undefined || filter === "" || row.message.toLowerCase().includes(filter.toLowerCase());
}

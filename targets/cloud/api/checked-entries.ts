// A Log call's entries checked on the wire and kept as the bytes they came in: the framing of each
// viam.common.v1.LogEntry, its level, its time, every field's bound, its Structs well-formed. What
// is kept therefore always decodes, and nothing of it is decoded into objects on the way in (the
// store and a tail decode only the entries someone reads). A bad entry refuses the call, naming the
// entry and the field.
import { Code, MAX_ENTRY_VALUES, SvcError } from "../../../core/index.js";
import type { ChunkEntry } from "../storage/log-chunk.js";
import { LOG_FIELD_LIMITS, LOG_LEVELS, logLevelIndex, MAX_LOG_BATCH } from "./logs-entries.js";
import { checkStruct, type ValueBudget } from "./struct-wire.js";
import { atEnd, eachDelimited, expectWireType, isUtf8Span, readSpan, readTag, readVarint, skipField, WireError, wireReader, WireType, type WireReader } from "../storage/wire-reader.js";

/** The last instant a google.protobuf.Timestamp may hold (9999-12-31T23:59:59.999Z): past it, an answer's JSON form could not say it. */
const MAX_TIME_MS = 253_402_300_799_999;

// Values (google.protobuf.Value) one entry's caller and fields may hold together: each costs a reader an object or two.
export { MAX_ENTRY_VALUES } from "../../../core/index.js";

/** Bytes one encoded entry may hold, all its fields together. */
export const MAX_ENTRY_BYTES = 256 * 1024;

// LogEntry { string host = 1; string level = 2; Timestamp time = 3; string logger_name = 4;
// string message = 5; Struct caller = 6; string stack = 7; repeated Struct fields = 8; }
const textFields: ReadonlyMap<number, keyof typeof LOG_FIELD_LIMITS> = new Map([
  [1, "host"],
  [4, "logger_name"],
  [5, "message"],
  [7, "stack"],
]);

const utf8 = new TextDecoder();

type Span = { readonly start: number; readonly end: number };

/** The entries of one Log call, each checked; `now` stands in for a missing time. */
export function checkedEntries(entries: readonly Uint8Array[], now: number): ChunkEntry[] {
  if (entries.length > MAX_LOG_BATCH) throw new SvcError(Code.InvalidArgument, `logs: at most ${MAX_LOG_BATCH} entries a call (got ${entries.length}); send them in several calls`);
  return entries.map((bytes, i) => checkedEntry(bytes, `logs[${i}]`, now));
}

/** One entry's time and level, its bytes as they came; InvalidArgument naming `where` when it is not fit to keep. */
export function checkedEntry(bytes: Uint8Array, where: string, now: number): ChunkEntry {
  if (bytes.length > MAX_ENTRY_BYTES) throw new SvcError(Code.InvalidArgument, `${where}: at most ${MAX_ENTRY_BYTES} bytes an entry (got ${bytes.length})`);
  const reader = wireReader(bytes);
  let level: number | undefined;
  let time = now;
  let fieldsBytes = 0;
  const values: ValueBudget = { left: MAX_ENTRY_VALUES, of: MAX_ENTRY_VALUES };
  while (!atEnd(reader)) {
    const { field, wireType } = wellFormed(where, "LogEntry", () => readTag(reader));
    if (field < 1 || field > 8) {
      wellFormed(where, "LogEntry", () => skipField(reader, wireType));
      continue;
    }
    const span = wellFormed(where, "LogEntry", () => {
      expectWireType(field, wireType, WireType.Bytes);
      return readSpan(reader);
    });
    const size = span.end - span.start;
    const text = textFields.get(field);
    if (text !== undefined) utf8Text(bytes, span, bounded(size, LOG_FIELD_LIMITS[text], `${where}.${text}`));
    else if (field === 2) level = levelAt(bytes, span) ?? logLevelIndex(levelText(bytes, span, `${where}.level`), `${where}.level`);
    else if (field === 3) time = timestampAt(wireReader(bytes, span.start, span.end), `${where}.time`);
    else if (field === 6) structAt(bytes, span, bounded(size, LOG_FIELD_LIMITS.caller, `${where}.caller`), values);
    else structAt(bytes, span, bounded((fieldsBytes += size), LOG_FIELD_LIMITS.fields, `${where}.fields`), values);
  }
  if (level === undefined) level = logLevelIndex("", `${where}.level`);
  return { time, level, bytes };
}

const levelCodes = LOG_LEVELS.map((level) => Array.from(level, (c) => c.charCodeAt(0)));

// The level when its bytes are one of LOG_LEVELS in any case (as nearly every entry's are), read
// without making a string; undefined otherwise.
function levelAt(bytes: Uint8Array, span: Span): number | undefined {
  const length = span.end - span.start;
  for (let level = 0; level < levelCodes.length; level++) {
    const codes = levelCodes[level]!;
    if (codes.length !== length) continue;
    let i = 0;
    while (i < length && (bytes[span.start + i]! | 0x20) === codes[i]) i++;
    if (i === length) return level;
  }
  return undefined;
}

// A level is a short word: a long one is read no further than it takes to say it is none.
function levelText(bytes: Uint8Array, span: Span, where: string): string {
  if (span.end - span.start > 64) return `${utf8.decode(bytes.subarray(span.start, span.start + 32))}...`;
  utf8Text(bytes, span, where);
  return utf8.decode(bytes.subarray(span.start, span.end));
}

// Text must be UTF-8, as protobuf's string is: a reader refuses the whole entry otherwise.
function utf8Text(bytes: Uint8Array, span: Span, where: string): Span {
  if (!isUtf8Span(bytes, span.start, span.end)) throw new SvcError(Code.InvalidArgument, `${where}: not valid UTF-8`);
  return span;
}

/** What `read` answers; InvalidArgument saying `where` is not a well-formed `what` when the bytes are not. */
function wellFormed<T>(where: string, what: string, read: () => T): T {
  try {
    return read();
  } catch (thrown) {
    if (thrown instanceof WireError) throw new SvcError(Code.InvalidArgument, `${where}: not a well-formed ${what} (${thrown.message})`);
    throw thrown;
  }
}

function bounded(size: number, limit: number, where: string): string {
  if (size > limit) throw new SvcError(Code.InvalidArgument, `${where}: at most ${limit} bytes (got ${size})`);
  return where;
}

function structAt(bytes: Uint8Array, span: Span, where: string, values: ValueBudget): void {
  wellFormed(where, "google.protobuf.Struct", () => checkStruct(bytes, span.start, span.end, values));
}

// Timestamp { int64 seconds = 1; int32 nanos = 2; } to ms, as protobuf-es's timestampMs has it.
function timestampAt(reader: WireReader, where: string): number {
  let seconds = 0;
  let nanos = 0;
  wellFormed(where, "google.protobuf.Timestamp", () => {
    while (!atEnd(reader)) {
      const { field, wireType } = readTag(reader);
      if (field === 1 || field === 2) {
        expectWireType(field, wireType, WireType.Varint);
        if (field === 1) seconds = readVarint(reader);
        else nanos = readVarint(reader);
      } else {
        skipField(reader, wireType);
      }
    }
  });
  // A negative seconds or nanos is a varint near 2^64 here: out of range, as it is for the store.
  const time = Math.round(seconds * 1000 + nanos / 1_000_000);
  if (nanos > 999_999_999 || !Number.isSafeInteger(time) || time < 0 || time > MAX_TIME_MS) throw new SvcError(Code.InvalidArgument, `${where}: out of range`);
  return time;
}

/** How many Values an entry's caller and fields hold (an entry already checked), read from its bytes alone. */
export function entryValues(bytes: Uint8Array): number {
  const budget: ValueBudget = { left: Number.MAX_SAFE_INTEGER, of: Number.MAX_SAFE_INTEGER };
  eachDelimited(bytes, (field, start, end) => {
    if (field === 6 || field === 8) checkStruct(bytes, start, end, budget);
  });
  return budget.of - budget.left;
}

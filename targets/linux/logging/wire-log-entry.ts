// A log entry as viam.common.v1.LogEntry, the shape RobotService.Log takes, held to every bound
// svc-cloud holds an entry to (core/logging/log-upload-limits.ts): a text too long is cut at a
// character boundary and says so; fields too large, too many or nested too deep are replaced by
// one field saying what was left out. So an entry is never the reason a batch is refused.
import { create, fromJson, toBinary, type JsonObject, type JsonValue } from "@bufbuild/protobuf";
import { StructSchema, timestampFromMs } from "@bufbuild/protobuf/wkt";
import { LOG_FIELD_LIMITS, MAX_ENTRY_VALUES, MAX_STRUCT_DEPTH, type LogEntry } from "../../../core/index.js";
import { LogEntrySchema, type LogEntry as WireLogEntry } from "../../../proto/gen/common/v1/common_pb.js";

const CUT_MARK = " [cut]";

export function toWireLogEntry(entry: LogEntry, host: string): WireLogEntry {
  return create(LogEntrySchema, {
    host: fitText(host, LOG_FIELD_LIMITS.host),
    level: entry.level,
    time: timestampFromMs(entry.time),
    loggerName: fitText(entry.logger, LOG_FIELD_LIMITS.logger_name),
    message: fitText(entry.message, LOG_FIELD_LIMITS.message),
    fields: wireFields(entry.fields),
  });
}

/** `text` when its UTF-8 fits in `limit` bytes; otherwise its longest start that fits with the mark. */
export function fitText(text: string, limit: number): string {
  if (Buffer.byteLength(text) <= limit) return text;
  const room = limit - Buffer.byteLength(CUT_MARK);
  // The longest start whose bytes fit: UTF-16 units are at most 3 bytes of UTF-8 each.
  let low = Math.floor(room / 3);
  let high = Math.min(text.length, room);
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (Buffer.byteLength(text.slice(0, mid)) <= room) low = mid;
    else high = mid - 1;
  }
  // Never half of a surrogate pair.
  const code = text.charCodeAt(low - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? low - 1 : low;
  return `${text.slice(0, end)}${CUT_MARK}`;
}

function wireFields(fields: LogEntry["fields"]): JsonObject[] {
  if (Object.keys(fields).length === 0) return [];
  let json: JsonObject;
  try {
    json = JSON.parse(JSON.stringify(fields, jsonSafe)) as JsonObject;
  } catch {
    return [leftOut("fields that cannot be written as JSON")];
  }
  const values = countValues(json, 0);
  if (values === undefined) return [leftOut(`fields nested more than ${MAX_STRUCT_DEPTH} deep`)];
  if (values > MAX_ENTRY_VALUES) return [leftOut(`fields of ${values} values, over the ${MAX_ENTRY_VALUES} an entry may carry`)];
  const size = toBinary(StructSchema, fromJson(StructSchema, json)).length;
  if (size > LOG_FIELD_LIMITS.fields) return [leftOut(`fields of ${size} bytes, over the ${LOG_FIELD_LIMITS.fields} an entry may carry`)];
  return [json];
}

function leftOut(what: string): JsonObject {
  return { fields_left_out: what };
}

/** The Values `json` holds (itself included), or undefined when it nests deeper than a reader takes. */
function countValues(json: JsonValue, depth: number): number | undefined {
  if (json === null || typeof json !== "object") return 1;
  if (depth >= MAX_STRUCT_DEPTH) return undefined;
  let total = 1;
  for (const inner of Array.isArray(json) ? json : Object.values(json)) {
    const counted = countValues(inner, depth + 1);
    if (counted === undefined) return undefined;
    total += counted;
  }
  return total;
}

function jsonSafe(_key: string, value: unknown): unknown {
  if (typeof value === "bigint") return `${value}`;
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  return value;
}

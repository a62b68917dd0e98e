// Log entries between the wire (viam.common.v1.LogEntry) and the store: the bounds an entry is held
// to (checked-entries.ts checks them on the way in), its levels, and a stored entry read back.
import { fromBinary, create, type JsonObject, type JsonValue } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { Code, SvcError } from "../../../core/index.js";
import { LogEntrySchema, type LogEntry } from "../../../proto/gen/common/v1/common_pb.js";
import type { ChunkEntry } from "../storage/log-chunk.js";
import { eachDelimited } from "../storage/wire-reader.js";

// The bounds are shared with the machines' uploader (core/logging/log-upload-limits.ts).
export { LOG_FIELD_LIMITS, MAX_LOG_BATCH } from "../../../core/index.js";

/** The levels an entry may have, least severe first (zap's, as Viam's machines send them). The store keeps the index. */
export const LOG_LEVELS = ["debug", "info", "warn", "error", "dpanic", "panic", "fatal"] as const;
/** What `errors_only` keeps. */
export const ERROR_LEVELS: readonly string[] = ["error", "dpanic", "panic", "fatal"];

/** A level as the store keeps it: its index in LOG_LEVELS; InvalidArgument naming `where` when it is none of them. */
export function logLevelIndex(level: string, where: string): number {
  const index = (LOG_LEVELS as readonly string[]).indexOf(level.trim().toLowerCase());
  if (index < 0) throw new SvcError(Code.InvalidArgument, `${where}: ${JSON.stringify(level.slice(0, 32))} is not a log level (${LOG_LEVELS.join(", ")})`);
  return index;
}

/** The indexes of levels named by a request. */
export function levelIndexes(levels: readonly string[], where: string): number[] {
  return levels.map((level, i) => logLevelIndex(level, `${where}[${i}]`));
}

export const ERROR_LEVEL_INDEXES: readonly number[] = levelIndexes(ERROR_LEVELS, "ERROR_LEVELS");

/**
 * A stored entry as the wire has it, with the level and time it was stored under (a level in lower
 * case, the time the cloud gave an entry that came without one). Entries are checked before they
 * are kept, so every one decodes; one that still does not is answered as what it is, not dropped.
 */
export function entryOf(stored: ChunkEntry): LogEntry {
  let entry: LogEntry;
  try {
    entry = fromBinary(LogEntrySchema, stored.bytes);
  } catch (thrown) {
    entry = create(LogEntrySchema, { message: `(svc-cloud could not read this entry: ${(thrown as Error).message})` });
  }
  entry.level = LOG_LEVELS[stored.level] ?? "info";
  entry.time = timestampFromMs(stored.time);
  if (entry.caller !== undefined) speakableNumbers(entry.caller);
  for (const field of entry.fields) speakableNumbers(field);
  return entry;
}

/**
 * A Struct may carry NaN or an infinity (a Go float logged as it was), which its JSON form cannot:
 * an answer in JSON holding one would fail whole. They are given as zap writes them, "NaN",
 * "+Inf" and "-Inf", in place.
 */
function speakableNumbers(value: JsonObject | JsonValue[]): void {
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, JsonValue>)[key];
    if (typeof item === "number" && !Number.isFinite(item)) (value as Record<string, JsonValue>)[key] = Number.isNaN(item) ? "NaN" : item > 0 ? "+Inf" : "-Inf";
    else if (typeof item === "object" && item !== null) speakableNumbers(item);
  }
}

const utf8 = new TextDecoder();

/** An encoded entry's message, read from its bytes alone. */
export function entryMessage(bytes: Uint8Array): string {
  let message = "";
  eachDelimited(bytes, (field, start, end) => {
    if (field === 5) message = utf8.decode(bytes.subarray(start, end));
  });
  return message;
}

/** Whether an encoded entry passes a text filter (its message contains the text, in any case); undefined when every entry does. */
export function textFilter(filter: string | undefined): ((bytes: Uint8Array) => boolean) | undefined {
  if (filter === undefined || filter === "") return undefined;
  const lower = filter.toLowerCase();
  return (bytes) => entryMessage(bytes).toLowerCase().includes(lower);
}

// Log entries stored a Log call at a time (storage/log-chunk.ts) instead of a row each: one insert
// a call rather than a thousand rows through three indexes, and kept 30 days from when they
// arrived rather than from the time a machine's clock gave them. Entries already stored move into
// chunks of up to a thousand of one part (no chunk spanning more than MAX_CHUNK_SPAN_MS), in the
// order they came, each entry encoded as the
// LogEntry it was received as; they keep their old rule (30 days from their own time). Then the
// row-per-entry table goes.
import { create, toBinary, type JsonObject } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { SqliteAdapter, type Kysely } from "kysely";
import { LogEntrySchema } from "../../../../proto/gen/common/v1/common_pb.js";
import { chunksWithin, encodeChunk, summaryOf, type ChunkEntry } from "../log-chunk.js";

// The levels as this migration's time knew them, least severe first; a chunk keeps the index.
const LEVELS = ["debug", "info", "warn", "error", "dpanic", "panic", "fatal"];
const MOVED_AT_ONCE = 1000;

interface OldRow {
  id: number;
  part_id: string;
  time: number;
  level: string;
  host: string;
  logger: string;
  message: string;
  caller: string | null;
  stack: string;
  fields: string;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const isSqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  await db.schema
    .createTable("log_chunks")
    .addColumn("id", isSqlite ? "integer" : "bigint", (c) => (isSqlite ? c.primaryKey() : c.primaryKey().generatedByDefaultAsIdentity()))
    .addColumn("part_id", "text", (c) => c.notNull())
    .addColumn("received", "bigint", (c) => c.notNull())
    .addColumn("first_time", "bigint", (c) => c.notNull())
    .addColumn("last_time", "bigint", (c) => c.notNull())
    .addColumn("levels", "integer", (c) => c.notNull())
    .addColumn("entries", "integer", (c) => c.notNull())
    .addColumn("body", isSqlite ? "blob" : "bytea", (c) => c.notNull())
    .execute();
  // A part's chunks newest first (the page query), and the oldest first (the retention sweep).
  await db.schema.createIndex("log_chunks_by_part").on("log_chunks").columns(["part_id", "last_time", "id"]).execute();
  await db.schema.createIndex("log_chunks_by_received").on("log_chunks").column("received").execute();
  await moveRows(db as Kysely<{ logs: OldRow; log_chunks: Record<string, unknown> }>);
  await db.schema.dropTable("logs").execute();
}

async function moveRows(db: Kysely<{ logs: OldRow; log_chunks: Record<string, unknown> }>): Promise<void> {
  let after = { part: "", id: -1 };
  for (;;) {
    const rows = await db
      .selectFrom("logs")
      .selectAll()
      .where((eb) => eb(eb.refTuple("part_id", "id"), ">", eb.tuple(after.part, after.id)))
      .orderBy("part_id")
      .orderBy("id")
      .limit(MOVED_AT_ONCE)
      .execute();
    if (rows.length === 0) return;
    const byPart = new Map<string, ChunkEntry[]>();
    for (const row of rows) {
      const entries = byPart.get(row.part_id) ?? [];
      entries.push(entryOf(row));
      byPart.set(row.part_id, entries);
    }
    for (const [part, entries] of byPart) {
      for (const chunk of chunksWithin(entries)) {
        const s = summaryOf(chunk);
        await db
          .insertInto("log_chunks")
          .values({ part_id: part, received: s.lastTime, first_time: s.firstTime, last_time: s.lastTime, levels: s.levels, entries: s.entries, body: encodeChunk(chunk) })
          .execute();
      }
    }
    const last = rows.at(-1)!;
    after = { part: last.part_id, id: Number(last.id) };
  }
}

function entryOf(row: OldRow): ChunkEntry {
  const time = Number(row.time);
  const entry = create(LogEntrySchema, {
    host: row.host,
    level: row.level,
    time: timestampFromMs(time),
    loggerName: row.logger,
    message: row.message,
    caller: row.caller === null ? undefined : (JSON.parse(row.caller) as JsonObject),
    stack: row.stack,
    fields: JSON.parse(row.fields) as JsonObject[],
  });
  return { time, level: Math.max(0, LEVELS.indexOf(row.level)), bytes: toBinary(LogEntrySchema, entry) };
}

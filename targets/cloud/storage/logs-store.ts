// Machines' log entries in the store, one row per Log call (log-chunk.ts): appended as they come,
// read one part at a time newest first (a page at a time, a cursor naming where the last page
// ended), and deleted only by age, a whole call's entries at once. Nothing here deletes one part's
// or one entry's logs: no API may.
//
// A page is read by walking the part's chunks newest first (by their newest entry), from the first
// that can hold an entry older than the page's start, keeping the best `limit` entries that match,
// and stopping once no chunk left can hold a newer one. Entries are ordered by time, then by the
// chunk they came in, then by their place in it. A walk yields the thread between reads and ends
// when its call does. The same walk counts a part's entries by level over a time range (the web
// app's chart of log volume). On PostgreSQL the rows are in a partition per day of arrival
// (log-partitions.ts); the queries are the same.
import { sql, type Kysely } from "kysely";
import { chunksWithin, eachChunkEntry, encodeChunk, MAX_CHUNK_SPAN_MS, ownBytes, summaryOf, type ChunkEntry } from "./log-chunk.js";
import { isMissingLogPartition, makeLogPartitions } from "./log-partitions.js";
import { preparedQuery, type Value } from "./prepared-query.js";
import type { Tables } from "./tables.js";

/** An entry read back: where it stands in the order, and its bytes. */
export interface StoredLog extends ChunkEntry {
  readonly chunk: number;
  readonly index: number;
}

/** Where a page ended: its last entry's place in the order. */
export type LogCursor = Pick<StoredLog, "time" | "chunk" | "index">;

export interface LogQuery {
  partId: string;
  /** Levels (indexes into LOG_LEVELS); every level when empty. */
  levels: readonly number[];
  /** Whether an entry's bytes pass the query's text filter; every entry passes when absent. */
  matches?: (entry: Uint8Array) => boolean;
  /** Inclusive bounds, ms. */
  startMs?: number;
  endMs?: number;
  /** Entries after this one in the order (the previous page's last). */
  before?: LogCursor;
  limit: number;
  /** The call's own: a walk stops when it aborts (the client went, or its deadline passed). */
  signal?: AbortSignal;
  /** Lets other work run (server/next-turn.ts); a long walk waits for it now and then. */
  turn?: () => Promise<void>;
}

/** Chunks read from the store at a time while a page is gathered. */
const CHUNKS_READ = 8;
/** Chunks, or bytes of their bodies, a walk goes through before it lets other calls have a turn. */
const CHUNKS_BETWEEN_TURNS = 64;
const BYTES_BETWEEN_TURNS = 8 * 1024 * 1024;
const ALL_LEVELS = 0x7fffffff;
const NEWEST = Number.MAX_SAFE_INTEGER;

/** Stores one Log call's entries: one chunk, or several when their times lie more than MAX_CHUNK_SPAN_MS apart. */
export async function insertLogChunk(db: Kysely<Tables>, partId: string, received: number, entries: readonly ChunkEntry[]): Promise<void> {
  // In time order (entries of the same time keep theirs), so a call whose entries interleave
  // times far apart still makes as few chunks as its times allow; the order a page gives is the
  // same either way.
  const chunks = chunksWithin([...entries].sort((a, b) => a.time - b.time));
  const insert = async (into: Kysely<Tables>) => {
    for (const chunk of chunks) {
      const s = summaryOf(chunk);
      await insertChunk.all(into, partId, received, s.firstTime, s.lastTime, s.levels, s.entries, encodeChunk(chunk));
    }
  };
  const write = () => (chunks.length <= 1 ? insert(db) : db.transaction().execute(insert));
  try {
    await write();
  } catch (thrown) {
    // On PostgreSQL, a day whose partition was not made ahead (the clock jumped past the days
    // made, or back before them): made now, and the call stored once more. Inside a caller's
    // transaction the refusal has ended the transaction, so it is passed on.
    if (db.isTransaction || !isMissingLogPartition(thrown)) throw thrown;
    await makeLogPartitions(db, received, 0);
    await write();
  }
}

/** A stand-in for a number or bytes (stand-ins are typed as text). */
const as = <T>(value: Value) => value as unknown as T;

const insertChunk = preparedQuery((db, part_id, received, first_time, last_time, levels, entries, body) =>
  db.insertInto("log_chunks").values({
    part_id,
    received: as<number>(received),
    first_time: as<number>(first_time),
    last_time: as<number>(last_time),
    levels: as<number>(levels),
    entries: as<number>(entries),
    body: as<Uint8Array>(body),
  }),
);

// A part's chunks that may hold a match, newest first, after (last_time, id). Every condition is
// always there (neutral values stand in for a query without it), so the statement is built once.
// The limit is written into it: PostgreSQL plans a statement whose limit is a parameter afresh at
// every run (its one plan for any limit would be costed for a tenth of the table), which on 30
// partitions costs more than reading the chunks.
const chunksNewestFirst = preparedQuery((db, partId, mask, startMs, upperMs, afterTime, afterId) =>
  db
    .selectFrom("log_chunks")
    .select(["id", "last_time", "body"])
    .where("part_id", "=", partId)
    .where(sql<number>`levels & ${mask}`, "<>", 0)
    .where("last_time", ">=", as<number>(startMs))
    .where("first_time", "<=", as<number>(upperMs))
    .where((eb) => eb(eb.refTuple("last_time", "id"), "<", eb.tuple(as<number>(afterTime), as<number>(afterId))))
    .orderBy("last_time", "desc")
    .orderBy("id", "desc")
    .limit(sql.lit(CHUNKS_READ)),
);

function newerFirst(a: LogCursor, b: LogCursor): number {
  return b.time - a.time || b.chunk - a.chunk || b.index - a.index;
}

/** One page of a part's entries, newest first. */
export async function queryLogs(db: Kysely<Tables>, query: LogQuery): Promise<StoredLog[]> {
  const { before, limit, matches } = query;
  const mask = query.levels.length === 0 ? ALL_LEVELS : query.levels.reduce((m, level) => m | (1 << level), 0);
  const startMs = query.startMs ?? -NEWEST;
  const endMs = query.endMs ?? NEWEST;
  const upperMs = Math.min(endMs, before?.time ?? NEWEST);
  let found: StoredLog[] = [];
  await walkChunks(db, { ...query, mask, startMs, upperMs }, (chunk, lastTime, body) => {
    // Nothing in this chunk or any after it is newer than the page's oldest entry.
    if (found.length >= limit && found[limit - 1]!.time > lastTime) return false;
    eachChunkEntry(body, (time, level, index, start, end) => {
      if ((mask & (1 << level)) === 0 || time < startMs || time > endMs) return;
      const entry = { time, level, chunk, index, bytes: body.subarray(start, end) };
      if (before !== undefined && newerFirst(before, entry) >= 0) return;
      // Copied: a view would keep its chunk's whole body while the walk goes on.
      if (matches === undefined || matches(entry.bytes)) found.push({ ...entry, bytes: ownBytes(entry.bytes) });
    });
    // Kept in order only once there is a page's worth: the check above reads its oldest.
    if (found.length >= limit) found = newestOf(found, limit);
    return true;
  });
  return newestOf(found, limit);
}

export interface VolumeQuery {
  partId: string;
  /** Inclusive start and exclusive end, ms; cut into `buckets` spans of equal length. */
  startMs: number;
  endMs: number;
  buckets: number;
  signal?: AbortSignal;
  turn?: () => Promise<void>;
}

/** How many entries of each level (LOG_LEVELS' order) a part logged in each span of the range, oldest span first. */
export async function logVolume(db: Kysely<Tables>, query: VolumeQuery): Promise<number[][]> {
  const { startMs, endMs, buckets } = query;
  const width = (endMs - startMs) / buckets;
  const counts = Array.from({ length: buckets }, () => [0, 0, 0, 0, 0, 0, 0]);
  await walkChunks(db, { ...query, mask: ALL_LEVELS, upperMs: endMs - 1 }, (_chunk, _lastTime, body) => {
    eachChunkEntry(body, (time, level) => {
      if (time < startMs || time >= endMs) return;
      const row = counts[Math.min(buckets - 1, Math.floor((time - startMs) / width))]!;
      row[level] = (row[level] ?? 0) + 1;
    });
    return true;
  });
  return counts;
}

interface ChunkWalk {
  partId: string;
  /** Chunks holding none of these levels (a bit per level) are not read. */
  mask: number;
  /** Entries' times of interest, inclusive. */
  startMs: number;
  upperMs: number;
  signal?: AbortSignal;
  turn?: () => Promise<void>;
}

/**
 * Reads a part's chunks that may hold entries between startMs and upperMs, newest first, handing
 * each to `visit` until it answers false. A long walk (a filter few entries match, far back, or a
 * month's volume) lets every other call have its turn now and then, rather than holding the one
 * thread until it ends; a short one (a newest page) ends before its first turn comes.
 */
async function walkChunks(db: Kysely<Tables>, walk: ChunkWalk, visit: (chunk: number, lastTime: number, body: Uint8Array) => boolean): Promise<void> {
  // Since the last turn other calls had.
  let chunksWalked = 0;
  let bytesWalked = 0;
  // No chunk spans more than MAX_CHUNK_SPAN_MS: one whose newest entry is further past the upper
  // bound holds nothing, so the walk starts there rather than at the newest.
  let after = { time: walk.upperMs >= NEWEST - MAX_CHUNK_SPAN_MS ? NEWEST : walk.upperMs + MAX_CHUNK_SPAN_MS + 1, id: NEWEST };
  for (;;) {
    const rows = await chunksNewestFirst.all(db, walk.partId, walk.mask, walk.startMs, walk.upperMs, after.time, after.id);
    for (const row of rows) {
      const lastTime = Number(row.last_time);
      const chunk = Number(row.id);
      if (!visit(chunk, lastTime, row.body)) return;
      chunksWalked += 1;
      bytesWalked += row.body.length;
      after = { time: lastTime, id: chunk };
      if (chunksWalked >= CHUNKS_BETWEEN_TURNS || bytesWalked >= BYTES_BETWEEN_TURNS) {
        chunksWalked = bytesWalked = 0;
        walk.signal?.throwIfAborted();
        await walk.turn?.();
      }
    }
    if (rows.length < CHUNKS_READ) return;
  }
}

/** The `limit` newest of `entries`, newest first. */
function newestOf(entries: StoredLog[], limit: number): StoredLog[] {
  return entries.sort(newerFirst).slice(0, limit);
}

const oldestChunks = preparedQuery((db, cutoffMs, batch) =>
  db
    .deleteFrom("log_chunks")
    // Said again outside the subquery so that PostgreSQL looks for the ids only in the partitions
    // that can hold them (log-partitions.ts).
    .where("received", "<", as<number>(cutoffMs))
    .where("id", "in", (eb) => eb.selectFrom("log_chunks").select("id").where("received", "<", as<number>(cutoffMs)).orderBy("received").limit(as<number>(batch)))
    .returning("entries"),
);

/**
 * Deletes at most `batch` of the oldest chunks taken in before `cutoffMs`; answers how many chunks
 * and entries went. Small batches keep each statement short, so ingest waits at most one batch.
 */
export async function deleteLogsBefore(db: Kysely<Tables>, cutoffMs: number, batch: number): Promise<{ chunks: number; entries: number }> {
  const gone = await oldestChunks.all(db, cutoffMs, batch);
  return { chunks: gone.length, entries: gone.reduce((sum, row) => sum + Number(row.entries), 0) };
}

/** How many entries a part has, or all parts (for diagnostics and tests). */
export async function countLogs(db: Kysely<Tables>, partId?: string): Promise<number> {
  let select = db.selectFrom("log_chunks").select((eb) => eb.fn.sum<number>("entries").as("n"));
  if (partId !== undefined) select = select.where("part_id", "=", partId);
  return Number((await select.executeTakeFirstOrThrow()).n ?? 0);
}

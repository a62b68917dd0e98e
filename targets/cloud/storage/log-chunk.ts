// The entries of one Log call as the store keeps them: one row, one body. The body is a format
// byte, then per entry its time (ms, varint), its level (one byte, an index into LOG_LEVELS), its
// length (varint) and its viam.common.v1.LogEntry bytes as the machine sent them. A query walks
// times and levels without decoding an entry, and decodes only the entries it answers with.
import { atEnd, readSpan, readVarint, WireError, wireReader } from "./wire-reader.js";
import { varintSize, writeVarint } from "./wire-writer.js";

/** An entry as the store keeps it. `level` indexes LOG_LEVELS (api/logs-entries.ts). */
export interface ChunkEntry {
  /** When the machine logged it (ms); the time the cloud took it in when the entry had none. */
  readonly time: number;
  readonly level: number;
  /** The encoded LogEntry. */
  readonly bytes: Uint8Array;
}

/** What the row holds beside the body, for the query's and the retention sweep's indexes. */
export interface ChunkSummary {
  readonly firstTime: number;
  readonly lastTime: number;
  /** Bit `1 << level` for each level present. */
  readonly levels: number;
  readonly entries: number;
}

const FORMAT = 1;

/**
 * A copy of `bytes` in a buffer of its own. A view (an entry of a request or of a chunk's body)
 * keeps its whole buffer alive; what is kept for longer than the call is copied. (A Buffer's own
 * `slice` makes another view, not a copy.)
 */
export function ownBytes(bytes: Uint8Array): Uint8Array {
  return Uint8Array.prototype.slice.call(bytes);
}

/**
 * The most time one chunk's entries span (newest minus oldest). A call's entries further apart
 * are stored as several chunks, so a page that starts at a time reads only chunks whose newest
 * entry is at most this much newer than it, however far back it is.
 */
export const MAX_CHUNK_SPAN_MS = 10 * 60_000;

/** `entries` in order, cut into runs that each span at most MAX_CHUNK_SPAN_MS. */
export function chunksWithin(entries: readonly ChunkEntry[]): ChunkEntry[][] {
  const chunks: ChunkEntry[][] = [];
  let current: ChunkEntry[] = [];
  let low = Infinity;
  let high = -Infinity;
  for (const entry of entries) {
    const nextLow = Math.min(low, entry.time);
    const nextHigh = Math.max(high, entry.time);
    if (current.length > 0 && nextHigh - nextLow > MAX_CHUNK_SPAN_MS) {
      chunks.push(current);
      current = [];
      low = high = entry.time;
    } else {
      low = nextLow;
      high = nextHigh;
    }
    current.push(entry);
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

export function encodeChunk(entries: readonly ChunkEntry[]): Uint8Array {
  let size = 1;
  for (const e of entries) size += varintSize(e.time) + 1 + varintSize(e.bytes.length) + e.bytes.length;
  const body = new Uint8Array(size);
  body[0] = FORMAT;
  let at = 1;
  for (const e of entries) {
    at = writeVarint(body, at, e.time);
    body[at++] = e.level;
    at = writeVarint(body, at, e.bytes.length);
    body.set(e.bytes, at);
    at += e.bytes.length;
  }
  return body;
}

export function summaryOf(entries: readonly ChunkEntry[]): ChunkSummary {
  let firstTime = Infinity;
  let lastTime = -Infinity;
  let levels = 0;
  for (const e of entries) {
    if (e.time < firstTime) firstTime = e.time;
    if (e.time > lastTime) lastTime = e.time;
    levels |= 1 << e.level;
  }
  return { firstTime, lastTime, levels, entries: entries.length };
}

/**
 * Calls `visit` for each entry of a body, in the order they came, with the entry's place in it
 * and where its bytes are. A body this store did not write throws.
 */
export function eachChunkEntry(body: Uint8Array, visit: (time: number, level: number, index: number, start: number, end: number) => void): void {
  if (body[0] !== FORMAT) throw new Error(`a log chunk of format ${body[0]} (this svc-cloud reads ${FORMAT})`);
  const reader = wireReader(body, 1);
  let index = 0;
  while (!atEnd(reader)) {
    const time = readVarint(reader);
    if (atEnd(reader)) throw new WireError("a log chunk cut short");
    const level = body[reader.pos++]!;
    const { start, end } = readSpan(reader);
    visit(time, level, index++, start, end);
  }
}

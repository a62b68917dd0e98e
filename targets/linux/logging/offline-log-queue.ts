// Log entries waiting for the cloud, kept on disk while the machine is offline so they survive a
// restart and are uploaded in order on reconnection.
//
// Bounds: at most maxEntries entries and maxBytes bytes (as stored) wait at once. Within them
// nothing is lost; beyond them the oldest entries are dropped and counted, and the count is handed
// to the uploader with the next batch. Only entries at minLevel or above are queued.
//
// On disk, DIR holds append-only segments named after their first sequence number
// (`0000000000000001.jsonl`, one JSON entry a line, each with its `seq`) and `state.json`
// ({ head, dropped }): entries before `head` were uploaded or dropped. Every entry is written with
// one synchronous append before write() returns, so a process that dies loses nothing it queued.
// A segment is deleted once all its entries are behind the head.
import { closeSync, openSync, readFileSync, readdirSync, renameSync, unlinkSync, writeFileSync, writeSync } from "node:fs";
import { makeDirectorySync } from "../system/index.js";
import { join } from "node:path";
import { parseLogLevel, type LogEntry, type LogLevel, type LogSink } from "../../../core/index.js";

export const DEFAULT_QUEUE_MAX_BYTES = 8 * 1024 * 1024;
export const DEFAULT_QUEUE_MAX_ENTRIES = 50_000;

export interface OfflineLogQueueOptions {
  dir: string;
  /** Default 8 MiB. */
  maxBytes?: number;
  /** Default 50,000. */
  maxEntries?: number;
  /** Entries below this level are not queued. Default "info". */
  minLevel?: LogLevel;
}

export interface QueuedLogEntry {
  seq: number;
  entry: LogEntry;
}

/** What peek hands the uploader; give it back to ack once the cloud has it. */
export interface LogBatch {
  entries: QueuedLogEntry[];
  /** Sequence number of the last entry in the batch (or of the last one before it, when empty). */
  lastSeq: number;
  /** Entries dropped (queue full) since the last acknowledged batch. */
  dropped: number;
}

export interface OfflineLogQueue extends LogSink {
  /** Queues the entry when its level is at least minLevel. */
  write(entry: LogEntry): void;
  /** The oldest waiting entries, in order, without removing them. */
  peek(limits?: { maxEntries?: number; maxBytes?: number }): LogBatch;
  /** Removes the batch's entries and clears the drop count it reported. */
  ack(batch: Pick<LogBatch, "lastSeq" | "dropped">): void;
  readonly size: number;
  readonly bytes: number;
  readonly dropped: number;
  close(): void;
}

interface Segment {
  name: string;
  lastSeq: number;
  bytes: number;
}

interface Item {
  seq: number;
  bytes: number;
  entry: LogEntry;
}

const SEGMENT_NAME = /^(\d{16})\.jsonl$/;
const LEVEL_RANKS: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

export function openOfflineLogQueue(options: OfflineLogQueueOptions): OfflineLogQueue {
  const { dir } = options;
  const maxBytes = options.maxBytes ?? DEFAULT_QUEUE_MAX_BYTES;
  const maxEntries = options.maxEntries ?? DEFAULT_QUEUE_MAX_ENTRIES;
  const minRank = LEVEL_RANKS[options.minLevel ?? "info"];
  // Small segments waste little when the head moves; many small files cost little to read back.
  const segmentBytes = Math.max(4096, Math.floor(maxBytes / 8));
  const statePath = join(dir, "state.json");

  makeDirectorySync(dir);
  const state = readState(statePath);
  let head = state.head;
  let dropped = state.dropped;
  let items: Item[] = [];
  let first = 0; // index of the oldest waiting item in `items`
  let totalBytes = 0;
  const segments: Segment[] = [];
  let current: { segment: Segment; fd: number } | undefined;
  let nextSeq = head;

  // Read back what an earlier process queued; a torn last line (killed mid-write) is skipped.
  for (const name of readdirSync(dir).filter((n) => SEGMENT_NAME.test(n)).sort()) {
    const text = readFileSync(join(dir, name), "utf8");
    const segment: Segment = { name, lastSeq: Number(SEGMENT_NAME.exec(name)![1]) - 1, bytes: Buffer.byteLength(text) };
    for (const line of text.split("\n")) {
      const item = parseLine(line);
      if (item === undefined) continue;
      segment.lastSeq = Math.max(segment.lastSeq, item.seq);
      nextSeq = Math.max(nextSeq, item.seq + 1);
      if (item.seq >= head && (items.length === 0 || item.seq > items[items.length - 1]!.seq)) {
        items.push(item);
        totalBytes += item.bytes;
      }
    }
    segments.push(segment);
  }
  enforceBounds();
  removeSpentSegments();

  function count(): number {
    return items.length - first;
  }

  function enforceBounds(): void {
    while (count() > 0 && (count() > maxEntries || totalBytes > maxBytes)) {
      const oldest = items[first++]!;
      totalBytes -= oldest.bytes;
      head = oldest.seq + 1;
      dropped++;
    }
    if (first > 1024 && first * 2 > items.length) {
      items = items.slice(first);
      first = 0;
    }
  }

  function persistState(): void {
    const tmp = `${statePath}.tmp`;
    writeFileSync(tmp, JSON.stringify({ head, dropped }));
    renameSync(tmp, statePath);
  }

  function removeSpentSegments(): void {
    const spent = segments.filter((s) => s.lastSeq < head);
    if (spent.length === 0) return;
    // The state goes first: if the process dies in between, the files are only skipped and removed later.
    persistState();
    for (const segment of spent) {
      if (current?.segment === segment) {
        closeSync(current.fd);
        current = undefined;
      }
      unlinkSync(join(dir, segment.name));
      segments.splice(segments.indexOf(segment), 1);
    }
  }

  function append(seq: number, line: string): number {
    const buffer = Buffer.from(line);
    if (current === undefined || current.segment.bytes >= segmentBytes) {
      if (current !== undefined) closeSync(current.fd);
      const segment: Segment = { name: `${String(seq).padStart(16, "0")}.jsonl`, lastSeq: seq - 1, bytes: 0 };
      current = { segment, fd: openSync(join(dir, segment.name), "a") };
      segments.push(segment);
    }
    let rest = buffer;
    while (rest.length > 0) {
      const written = writeSync(current.fd, rest);
      if (written <= 0) throw new Error("the queue file accepts no more data");
      rest = rest.subarray(written);
    }
    current.segment.bytes += buffer.length;
    current.segment.lastSeq = seq;
    return buffer.length;
  }

  return {
    write(entry) {
      if (LEVEL_RANKS[entry.level] < minRank) return;
      const seq = nextSeq++;
      const line = serialize(seq, entry);
      let bytes: number;
      try {
        bytes = append(seq, line);
      } catch {
        // The disk refused it: keep the entry in memory (still bounded) and start a fresh segment.
        bytes = Buffer.byteLength(line);
        if (current !== undefined) closeQuietly(current.fd);
        current = undefined;
      }
      items.push({ seq, bytes, entry });
      totalBytes += bytes;
      enforceBounds();
      removeSpentSegments();
    },
    peek(limits = {}) {
      const most = limits.maxEntries ?? 100;
      const mostBytes = limits.maxBytes ?? Infinity;
      const entries: QueuedLogEntry[] = [];
      let bytes = 0;
      for (let i = first; i < items.length && entries.length < most; i++) {
        const item = items[i]!;
        if (entries.length > 0 && bytes + item.bytes > mostBytes) break;
        bytes += item.bytes;
        entries.push({ seq: item.seq, entry: item.entry });
      }
      const lastSeq = entries.length > 0 ? entries[entries.length - 1]!.seq : head - 1;
      return { entries, lastSeq, dropped };
    },
    ack(batch) {
      while (count() > 0 && items[first]!.seq <= batch.lastSeq) {
        totalBytes -= items[first]!.bytes;
        first++;
      }
      head = Math.max(head, batch.lastSeq + 1);
      dropped = Math.max(0, dropped - batch.dropped);
      enforceBounds();
      persistState();
      removeSpentSegments();
    },
    get size() {
      return count();
    },
    get bytes() {
      return totalBytes;
    },
    get dropped() {
      return dropped;
    },
    close() {
      persistState();
      if (current !== undefined) closeSync(current.fd);
      current = undefined;
    },
  };
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    /* already unusable */
  }
}

function readState(path: string): { head: number; dropped: number } {
  try {
    const state = JSON.parse(readFileSync(path, "utf8")) as { head?: unknown; dropped?: unknown };
    const head = Number.isSafeInteger(state.head) ? (state.head as number) : 1;
    const dropped = Number.isSafeInteger(state.dropped) ? (state.dropped as number) : 0;
    return { head: Math.max(1, head), dropped: Math.max(0, dropped) };
  } catch {
    return { head: 1, dropped: 0 };
  }
}

function serialize(seq: number, entry: LogEntry): string {
  const { time, level, logger, message, fields } = entry;
  try {
    return `${JSON.stringify({ seq, time, level, logger, message, fields }, jsonSafe)}\n`;
  } catch {
    return `${JSON.stringify({ seq, time, level, logger, message, fields: { unserializable: true } })}\n`;
  }
}

function jsonSafe(_key: string, value: unknown): unknown {
  if (typeof value === "bigint") return `${value}`;
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  return value;
}

function parseLine(line: string): Item | undefined {
  if (line === "") return undefined;
  try {
    const raw = JSON.parse(line) as Record<string, unknown>;
    const level = parseLogLevel(raw.level);
    if (!Number.isSafeInteger(raw.seq) || level === undefined) return undefined;
    const entry: LogEntry = {
      time: Number(raw.time),
      level,
      logger: String(raw.logger),
      message: String(raw.message),
      fields: raw.fields !== null && typeof raw.fields === "object" ? (raw.fields as Record<string, unknown>) : {},
    };
    return { seq: raw.seq as number, bytes: Buffer.byteLength(line) + 1, entry };
  } catch {
    return undefined;
  }
}

// Log entries waiting for the cloud, kept on disk while the machine is offline so they survive a
// restart and are uploaded in order on reconnection.
//
// Bounds: at most maxEntries entries and maxBytes bytes (as stored) wait at once. Within them
// nothing is lost; beyond them the oldest entries are dropped and counted, and the count is handed
// to the uploader with the next batch. Only entries at minLevel or above are queued.
//
// On disk, DIR holds append-only segments (queue-segments.ts) and `state.json` ({ head, dropped }):
// entries before `head` were uploaded or dropped. Every entry is written with one synchronous
// append before write() returns, so a process that dies loses nothing it queued. A segment is
// deleted once all its entries are behind the head.
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { makeDirectorySync } from "../system/index.js";
import { join } from "node:path";
import type { LogEntry, LogLevel, LogSink } from "../../../core/index.js";
import { openQueueSegments, type QueueItem } from "./queue-segments.js";

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
  const found = openQueueSegments(dir, segmentBytes, head);
  const segments = found.segments;
  let items: QueueItem[] = found.items;
  let first = 0; // index of the oldest waiting item in `items`
  let totalBytes = items.reduce((sum, item) => sum + item.bytes, 0);
  let nextSeq = found.nextSeq;
  const persistState = () => writeState(statePath, head, dropped);
  enforceBounds();
  segments.removeSpent(head, persistState);

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

  return {
    write(entry) {
      if (LEVEL_RANKS[entry.level] < minRank) return;
      const seq = nextSeq++;
      const line = serialize(seq, entry);
      let bytes: number;
      try {
        bytes = segments.append(seq, line);
      } catch {
        // The disk refused it: keep the entry in memory (still bounded) and start a fresh segment.
        bytes = Buffer.byteLength(line);
        segments.abandonCurrent();
      }
      items.push({ seq, bytes, entry });
      totalBytes += bytes;
      enforceBounds();
      segments.removeSpent(head, persistState);
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
      segments.removeSpent(head, persistState);
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
      segments.close();
    },
  };
}

function writeState(statePath: string, head: number, dropped: number): void {
  const tmp = `${statePath}.tmp`;
  writeFileSync(tmp, JSON.stringify({ head, dropped }));
  renameSync(tmp, statePath);
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

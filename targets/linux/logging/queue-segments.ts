// The offline log queue's files: append-only segments in DIR named after their first sequence
// number (`0000000000000001.jsonl`, one JSON entry a line, each with its `seq`). Every entry is
// written with one synchronous append before the write returns, so a process that dies loses
// nothing it queued; a new segment starts once the current one is full, and a segment is deleted
// once all its entries are behind the head.
import { closeSync, openSync, readFileSync, readdirSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import { parseLogLevel, type LogEntry } from "../../../core/index.js";

/** One queued entry as stored: its sequence number and size on disk. */
export interface QueueItem {
  seq: number;
  bytes: number;
  entry: LogEntry;
}

interface Segment {
  name: string;
  lastSeq: number;
  bytes: number;
}

export interface QueueSegments {
  /** Appends one serialized entry; returns the bytes written. Throws when the disk refuses it. */
  append(seq: number, line: string): number;
  /** The current segment is unusable: the next append starts a fresh one. */
  abandonCurrent(): void;
  /** Deletes the segments wholly before `head`; `persist` runs first, when there are any. */
  removeSpent(head: number, persist: () => void): void;
  close(): void;
}

const SEGMENT_NAME = /^(\d{16})\.jsonl$/;

/**
 * Reads back what an earlier process queued (a torn last line, from a kill mid-write, is skipped):
 * the items from `head` on, in order, and the next sequence number.
 */
export function openQueueSegments(dir: string, segmentBytes: number, head: number): { segments: QueueSegments; items: QueueItem[]; nextSeq: number } {
  const segments: Segment[] = [];
  const items: QueueItem[] = [];
  let nextSeq = head;
  for (const name of readdirSync(dir).filter((n) => SEGMENT_NAME.test(n)).sort()) {
    const text = readFileSync(join(dir, name), "utf8");
    const segment: Segment = { name, lastSeq: Number(SEGMENT_NAME.exec(name)![1]) - 1, bytes: Buffer.byteLength(text) };
    for (const line of text.split("\n")) {
      const item = parseLine(line);
      if (item === undefined) continue;
      segment.lastSeq = Math.max(segment.lastSeq, item.seq);
      nextSeq = Math.max(nextSeq, item.seq + 1);
      if (item.seq >= head && (items.length === 0 || item.seq > items[items.length - 1]!.seq)) items.push(item);
    }
    segments.push(segment);
  }
  return { segments: segmentFiles(dir, segmentBytes, segments), items, nextSeq };
}

function segmentFiles(dir: string, segmentBytes: number, segments: Segment[]): QueueSegments {
  let current: { segment: Segment; fd: number } | undefined;
  return {
    append(seq, line) {
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
    },
    abandonCurrent() {
      if (current !== undefined) closeQuietly(current.fd);
      current = undefined;
    },
    removeSpent(head, persist) {
      const spent = segments.filter((s) => s.lastSeq < head);
      if (spent.length === 0) return;
      // The state goes first: if the process dies in between, the files are only skipped and removed later.
      persist();
      for (const segment of spent) {
        if (current?.segment === segment) {
          closeSync(current.fd);
          current = undefined;
        }
        unlinkSync(join(dir, segment.name));
        segments.splice(segments.indexOf(segment), 1);
      }
    },
    close() {
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

function parseLine(line: string): QueueItem | undefined {
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

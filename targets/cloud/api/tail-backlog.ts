// What a log tail holds for its client between the entries' arrival and the client taking them:
// batches in order, bounded in entries and in bytes. An entry's bytes arrive as a view of the whole
// request they came in; what waits here is copied, so a tail holds its entries' own bytes and never
// a call's body (one small error entry of a 4 MiB call would otherwise keep all of it alive).
import { ownBytes, type ChunkEntry } from "../storage/log-chunk.js";

export interface TailBacklog {
  /** Takes a batch (already filtered); false once the bounds are passed: the tail is to end. */
  offer(entries: readonly ChunkEntry[]): boolean;
  /** The oldest batch waiting, or undefined. */
  take(): ChunkEntry[] | undefined;
}

export function createTailBacklog(maxEntries: number, maxBytes: number): TailBacklog {
  const batches: { entries: ChunkEntry[]; bytes: number }[] = [];
  let entries = 0;
  let bytes = 0;
  let overflowed = false;
  return {
    offer(offered) {
      if (overflowed) return false;
      if (offered.length === 0) return true;
      const owned = offered.map((entry) => ({ ...entry, bytes: ownBytes(entry.bytes) }));
      const size = owned.reduce((sum, entry) => sum + entry.bytes.length, 0);
      entries += owned.length;
      bytes += size;
      if (entries > maxEntries || bytes > maxBytes) {
        overflowed = true;
        batches.length = 0;
        return false;
      }
      batches.push({ entries: owned, bytes: size });
      return true;
    },
    take() {
      const next = batches.shift();
      if (next === undefined) return undefined;
      entries -= next.entries.length;
      bytes -= next.bytes;
      return next.entries;
    },
  };
}

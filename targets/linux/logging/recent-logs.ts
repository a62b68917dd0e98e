// The newest log entries the process wrote, kept in memory for the machine's own control page:
// a ring of `capacity` entries, each numbered in the order written, so a reader polling with the
// last number it saw gets exactly what came after (and learns how many it missed when it fell
// behind the ring). Entries are held as the engine wrote them; nothing is formatted until read.
import type { LogEntry, LogLevel, LogSink } from "../../../core/index.js";

export interface RecentLogEntry extends LogEntry {
  /** 1 for the first entry written, one more for each after it. */
  seq: number;
}

export interface RecentLogsPage {
  entries: RecentLogEntry[];
  /** The number to ask after next time. */
  next: number;
  /** Entries after `after` that the ring no longer holds. */
  missed: number;
}

export interface RecentLogs extends LogSink {
  /** Entries numbered after `after`, at `minLevel` or above, oldest first, at most `max` of them. */
  since(after: number, minLevel?: LogLevel, max?: number): RecentLogsPage;
}

export const DEFAULT_RECENT_LOGS = 2000;
const RANKS: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

export function createRecentLogs(capacity = DEFAULT_RECENT_LOGS): RecentLogs {
  const ring: RecentLogEntry[] = [];
  let written = 0;
  return {
    write(entry) {
      written += 1;
      ring[(written - 1) % capacity] = { ...entry, seq: written };
    },
    since(after, minLevel = "debug", max = capacity) {
      const first = Math.max(after + 1, written - capacity + 1, 1);
      const missed = Math.max(0, first - (after + 1));
      const floor = RANKS[minLevel];
      const entries: RecentLogEntry[] = [];
      let seq = first;
      for (; seq <= written && entries.length < max; seq++) {
        const entry = ring[(seq - 1) % capacity]!;
        if (RANKS[entry.level] >= floor) entries.push(entry);
      }
      return { entries, next: seq - 1, missed };
    },
  };
}

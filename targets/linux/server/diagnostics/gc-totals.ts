// Garbage collection since the process began watching: how many collections and how long they
// held the main thread, summed from perf_hooks 'gc' entries. Read before and after a stretch of
// work, the difference is what the collector cost that work (the unary bench reads it around
// each measured window). Node queues a collection's entry just after it; `read()` takes what is
// queued, so a read sees every collection that ended before the current turn of the event loop.
import { PerformanceObserver, type PerformanceEntry } from "node:perf_hooks";

export interface GcTotals {
  count: number;
  /** Milliseconds, the sum of the collections' durations. */
  durationMs: number;
}

export interface GcWatch {
  read(): GcTotals;
  stop(): void;
}

export function watchGc(): GcWatch {
  let count = 0;
  let durationMs = 0;
  const add = (entries: readonly PerformanceEntry[]) => {
    count += entries.length;
    for (const entry of entries) durationMs += entry.duration;
  };
  const observer = new PerformanceObserver((list) => add(list.getEntries()));
  observer.observe({ type: "gc" });
  return {
    read() {
      add(observer.takeRecords());
      return { count, durationMs };
    },
    stop: () => observer.disconnect(),
  };
}

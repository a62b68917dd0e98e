// Log entries are kept LOG_RETENTION_MS from when svc-cloud took them in, then deleted by svc-cloud
// itself (no API deletes logs). Arrival, not the time an entry carries, is what counts: a machine
// whose clock was never set (1970) or that comes back after a month offline still has its logs
// kept the full time. A sweep deletes the oldest expired Log calls' entries (chunks) a small batch
// at a time with a pause between batches (at least nine times as long as the batch took), so a
// sweep through millions of entries never holds the store, or the thread, long enough to stall the
// machines sending logs meanwhile. A sweep starts at start-up and every `intervalMs` after.
//
// On PostgreSQL the logs are kept in a partition per day of arrival (storage/log-partitions.ts):
// each sweep first makes the partitions of today and the next days, then drops whole each day
// that ended before the cut-off, and only then deletes in batches what is left to expire, the
// first rows of the day the cut-off falls in, so a day's logs go with one statement and the rule
// stays exact to the millisecond.
import { errorMessage, every, sleep, type Clock } from "../../../core/index.js";
import type { Kysely } from "kysely";
import { dropExpiredLogPartitions, makeLogPartitions } from "../storage/log-partitions.js";
import { deleteLogsBefore } from "../storage/logs-store.js";
import type { Tables } from "../storage/tables.js";

/** How long log entries are kept: 30 days. */
export const LOG_RETENTION_MS = 30 * 24 * 60 * 60_000;

export interface LogRetentionOptions {
  db: Kysely<Tables>;
  clock: Clock;
  log: (line: string) => void;
  maxAgeMs?: number;
  /** Chunks (the entries of one Log call each) deleted by one statement. */
  batch?: number;
  /** The pause between two batches of one sweep. */
  pauseMs?: number;
  /** Between the ends of two sweeps. */
  intervalMs?: number;
}

export interface LogRetention {
  /** Deletes every expired entry (whole days first on PostgreSQL, then batch by batch); answers how many. Joins a sweep under way. */
  sweep(): Promise<number>;
  stop(): void;
}

export function startLogRetention(options: LogRetentionOptions): LogRetention {
  const { db, clock, log, maxAgeMs = LOG_RETENTION_MS, batch = 20, pauseMs = 10, intervalMs = 60_000 } = options;
  let stopped = false;
  let running: Promise<number> | undefined;

  // Today's partition and the next days', before they are needed; an insert that still finds
  // none makes its own (logs-store.ts), so a failure here stops nothing.
  const prepare = async () => {
    try {
      await makeLogPartitions(db, clock.now());
    } catch (thrown) {
      log(`svc-cloud: making the next days' log partitions failed: ${errorMessage(thrown)}`);
    }
  };

  const dropDays = async () => {
    const dropped = await dropExpiredLogPartitions(db, clock.now() - maxAgeMs);
    if (dropped.names.length > 0) log(`svc-cloud: dropped ${dropped.names.length} expired day(s) of log entries (${dropped.entries} entries): ${dropped.names.join(", ")}`);
    return dropped.entries;
  };

  const run = async () => {
    await prepare();
    let total = await dropDays();
    while (!stopped) {
      const started = clock.now();
      const deleted = await deleteLogsBefore(db, clock.now() - maxAgeMs, batch);
      total += deleted.entries;
      if (deleted.chunks < batch) break;
      // The pause grows with what the batch cost, so deleting never takes more than a tenth of
      // the thread that also takes the machines' logs in (still millions of rows an hour).
      await sleep(clock, Math.max(pauseMs, 9 * (clock.now() - started)));
    }
    return total;
  };

  const sweep = () => {
    running ??= run().finally(() => (running = undefined));
    return running;
  };

  const background = () => {
    sweep().catch((thrown: unknown) => {
      if (!stopped) log(`svc-cloud: deleting expired log entries failed: ${(thrown as Error).message}`);
    });
  };
  background();
  const stopTimer = every(clock, intervalMs, background);
  return {
    sweep,
    stop: () => {
      stopped = true;
      stopTimer();
    },
  };
}

// The newest `received` among the stored log chunks, read once for every tail of one replica
// (log-tail-source.ts). Each tail on PostgreSQL needs it at every look, and it does not depend on
// the tail's part: rather than one max(received) over the daily partitions per tail and look, a
// look takes the value another look read less than `maxAgeMs` ago, or waits for the read under
// way, and only otherwise reads it itself. So however many tails look, one statement starts per
// `maxAgeMs` (and one for each tail that opens, which asks for a fresh read); with no tail open
// none runs, and nothing here waits on a timer.
//
// Every value handed out was read before the look that asked went on to read its part's chunks
// (the look awaits it), which is all the tails' argument needs: why a value up to `maxAgeMs` old
// is as good as a fresh one is in log-tail-source.ts. The value only grows: a read looks only at
// chunks received since the newest known, so PostgreSQL searches the partitions from that day on
// rather than every day's, and a read that finds none there (retention removed them) leaves the
// newest known as it is, an older value being safe in the same way a stale one is.
import type { Kysely } from "kysely";
import type { Clock } from "../../../core/index.js";
import { preparedQuery, type Value } from "../storage/prepared-query.js";
import type { Tables } from "../storage/tables.js";

export interface NewestReceived {
  /**
   * The newest `received` of the store's chunks, as read by a statement that started less than
   * `maxAgeMs` ago or starts now (`fresh`: always one that starts now); undefined while no read
   * has found a chunk. Rejects, for every look waiting on it, when the read fails.
   */
  read(fresh?: boolean): Promise<number | undefined>;
}

/** A stand-in for a number (stand-ins are typed as text). */
const as = <T>(value: Value) => value as unknown as T;

const newestSince = preparedQuery((db, since) =>
  db
    .selectFrom("log_chunks")
    .select((eb) => eb.fn.max("received").as("newest"))
    .where("received", ">=", as<number>(since)),
);

/** One shared newest for the tails reading `db`, read at most once per `maxAgeMs` of `clock` unless asked fresh. */
export function newestReceived(db: Kysely<Tables>, clock: Clock, maxAgeMs: number): NewestReceived {
  /** The newest `received` a read has found; undefined while none has found a chunk. */
  let known: number | undefined;
  /** When (clock ms) the latest read that ended started. */
  let knownAt = -Infinity;
  let reading: Promise<number | undefined> | undefined;

  const start = () => {
    const startedAt = clock.now();
    const read = newestSince.first(db, known ?? -Number.MAX_SAFE_INTEGER).then((row) => {
      const max = row?.newest;
      if (max !== undefined && max !== null) known = Math.max(known ?? -Infinity, Number(max));
      knownAt = Math.max(knownAt, startedAt);
      return known;
    });
    reading = read;
    const done = () => {
      if (reading === read) reading = undefined;
    };
    read.then(done, done);
    return read;
  };

  return {
    read(fresh = false) {
      if (fresh) return start();
      if (reading !== undefined) return reading;
      return clock.now() - knownAt < maxAgeMs ? Promise.resolve(known) : start();
    },
  };
}

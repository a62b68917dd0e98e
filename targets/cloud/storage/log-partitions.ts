// On PostgreSQL `log_chunks` is partitioned by the UTC day a Log call arrived (`received`): one
// table per day, `log_chunks_p20261128`, made before the day comes, so that retention removes a
// day older than the cut-off by dropping its table instead of deleting its rows (a drop frees the
// space at once and leaves no dead rows for vacuum), whatever the day held. SQLite keeps one table:
// every function here does nothing there.
//
// Making and dropping a partition takes the whole table's lock, which waits for every statement
// reading or writing logs and makes those that come after it wait in turn. A statement is short,
// but `pg_dump` (a backup) holds its lock for as long as it runs: so the lock is waited for at most
// LOCK_WAIT, and a partition not made or not dropped then is left for the next sweep (the days are
// made ahead, and the rows of a day not dropped are deleted row by row meanwhile).
//
// Several replicas make and drop the same partitions, one at a time (a lock of svc-cloud's own in
// the database): making one another replica made first is no error (CREATE TABLE IF NOT EXISTS),
// and dropping one another replica dropped first is not counted as dropped here.
import { sql, type Kysely } from "kysely";
import { NAMED_LOCK_CLASS } from "./postgres-locks.js";
import { isPostgres } from "./store-dialect.js";

export const DAY_MS = 24 * 60 * 60_000;
/** Days after today whose partitions each sweep makes ahead. */
export const DAYS_AHEAD = 3;
/** The longest a partition's making or dropping waits for the table's lock (PostgreSQL's `lock_timeout`). */
const LOCK_WAIT = "1s";

// PostgreSQL's SQLSTATEs this module answers to.
const NO_PARTITION_FOR_ROW = "23514";
const UNIQUE_VIOLATION = "23505";
const DUPLICATE_TABLE = "42P07";
const UNDEFINED_TABLE = "42P01";
const LOCK_NOT_AVAILABLE = "55P03";

/** A partition of log_chunks: its table and the arrivals it holds, [from, to) in ms. */
export interface LogPartition {
  readonly schema: string;
  readonly name: string;
  readonly from: number;
  readonly to: number;
}

/** What a sweep's drops removed. */
export interface DroppedLogPartitions {
  readonly names: string[];
  readonly entries: number;
}

/** The start (ms) of the UTC day `ms` falls in. */
export function dayStart(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/** The partition's table for the day starting at `day`: `log_chunks_p` and the date (`log_chunks_d` and the day's number, `m` before it for minus, past the years 0-9999). */
export function logPartitionName(day: number): string {
  const date = new Date(day);
  const year = date.getUTCFullYear();
  if (!(year >= 0 && year <= 9999)) return `log_chunks_d${day < 0 ? "m" : ""}${Math.abs(Math.floor(day / DAY_MS))}`;
  return `log_chunks_p${date.toISOString().slice(0, 10).replaceAll("-", "")}`;
}

/**
 * Makes the partition for the day starting at `day` unless it exists, as it stands: no lock wait,
 * no catching, for a caller that holds the migration lock (migrations/0012-log-partitions.ts).
 */
export async function createLogPartition<DB>(db: Kysely<DB>, day: number): Promise<void> {
  const name = sql.id(logPartitionName(day));
  await sql`create table if not exists ${name} partition of log_chunks for values from (${sql.lit(day)}) to (${sql.lit(day + DAY_MS)})`.execute(db);
}

/** Makes the partitions of the day `atMs` falls in and of the `daysAhead` days after it, those that do not exist yet. */
export async function makeLogPartitions<DB>(db: Kysely<DB>, atMs: number, daysAhead = DAYS_AHEAD): Promise<void> {
  if (!isPostgres(db)) return;
  const first = dayStart(atMs);
  for (let day = first; day <= first + daysAhead * DAY_MS; day += DAY_MS) {
    try {
      await db.transaction().execute(async (tx) => {
        await takePartitionsLock(tx);
        await createLogPartition(tx, day);
      });
    } catch (thrown) {
      const state = sqlStateOf(thrown);
      if (state !== DUPLICATE_TABLE && state !== UNIQUE_VIOLATION) throw thrown;
    }
  }
}

/** Whether `thrown` is PostgreSQL's refusal of a log chunk whose day has no partition. */
export function isMissingLogPartition(thrown: unknown): boolean {
  return sqlStateOf(thrown) === NO_PARTITION_FOR_ROW && /no partition of relation/.test(String((thrown as { message?: unknown }).message));
}

/** log_chunks' partitions, oldest first; none on SQLite. A partition whose bounds are not a range of arrivals (one an operator added) is left out. */
export async function logPartitions<DB>(db: Kysely<DB>): Promise<LogPartition[]> {
  if (!isPostgres(db)) return [];
  const { rows } = await sql<{ schema: string; name: string; bound: string }>`
    select n.nspname as schema, c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
    from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_namespace n on n.oid = c.relnamespace
    where i.inhparent = 'log_chunks'::regclass`.execute(db);
  const found: LogPartition[] = [];
  for (const row of rows) {
    const range = /^FOR VALUES FROM \('?(-?\d+)'?\) TO \('?(-?\d+)'?\)$/.exec(row.bound);
    if (range !== null) found.push({ schema: row.schema, name: row.name, from: Number(range[1]), to: Number(range[2]) });
  }
  return found.sort((a, b) => a.from - b.from);
}

/**
 * Drops every partition that holds nothing that arrived at or after `cutoffMs`; answers which, and
 * how many entries they held. The entries are counted before the drop, without holding anything
 * up; a partition that could not be dropped now (its lock was busy past LOCK_WAIT) stays, and its
 * rows expire with the batch deletion.
 */
export async function dropExpiredLogPartitions<DB>(db: Kysely<DB>, cutoffMs: number): Promise<DroppedLogPartitions> {
  const names: string[] = [];
  let entries = 0;
  for (const partition of await logPartitions(db)) {
    if (partition.to > cutoffMs) continue;
    const held = await entriesIn(db, partition);
    if (held === undefined || !(await dropPartition(db, partition))) continue;
    names.push(partition.name);
    entries += held;
  }
  return { names, entries };
}

/** How many entries a partition holds; undefined once another replica dropped it. */
async function entriesIn<DB>(db: Kysely<DB>, partition: LogPartition): Promise<number | undefined> {
  try {
    const { rows } = await sql<{ n: number }>`select coalesce(sum(entries), 0) as n from ${sql.id(partition.schema, partition.name)}`.execute(db);
    return Number(rows[0]?.n ?? 0);
  } catch (thrown) {
    if (sqlStateOf(thrown) === UNDEFINED_TABLE) return undefined;
    throw thrown;
  }
}

/** Drops a partition; false when another replica dropped it first or its lock stayed busy. */
async function dropPartition<DB>(db: Kysely<DB>, partition: LogPartition): Promise<boolean> {
  try {
    return await db.transaction().execute(async (tx) => {
      await takePartitionsLock(tx);
      const { rows } = await sql<{ there: string | null }>`select to_regclass(${`${partition.schema}.${partition.name}`})::text as there`.execute(tx);
      if (rows[0]?.there === null || rows[0]?.there === undefined) return false;
      await sql`drop table ${sql.id(partition.schema, partition.name)}`.execute(tx);
      return true;
    });
  } catch (thrown) {
    const state = sqlStateOf(thrown);
    if (state === UNDEFINED_TABLE || state === LOCK_NOT_AVAILABLE) return false;
    throw thrown;
  }
}

/**
 * Waits (at most LOCK_WAIT, as for the table's lock) until no other replica makes or drops a
 * partition: PostgreSQL lets two sessions race on one partition's catalog rows, and the loser may
 * fail with an internal error rather than "already exists" or "does not exist".
 */
async function takePartitionsLock<DB>(tx: Kysely<DB>): Promise<void> {
  await sql`set local lock_timeout = ${sql.lit(LOCK_WAIT)}`.execute(tx);
  await sql`select pg_advisory_xact_lock(${sql.lit(NAMED_LOCK_CLASS)}, hashtext('svc-cloud:log-partitions'))`.execute(tx);
}

/** The SQLSTATE of a PostgreSQL error, or of the one a SvcError wraps (postgres-error.ts). */
function sqlStateOf(thrown: unknown): string | undefined {
  for (let at = thrown, depth = 0; typeof at === "object" && at !== null && depth < 4; at = (at as { cause?: unknown }).cause, depth++) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  return undefined;
}

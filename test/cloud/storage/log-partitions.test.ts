// Logs on PostgreSQL in one partition of log_chunks per UTC day of arrival, on a real PostgreSQL:
// a store from before partitions keeps every row, readable as before, each in its day; retention
// makes the coming days' partitions, drops whole the days older than 30 days (gone from the
// catalog) and deletes row by row only the expired part of the day the cut-off falls in; a Log
// call on a day with no partition yet is stored all the same; and two replicas making or dropping
// the same partitions at once both succeed, each day made once and counted once.
import { Kysely, Migrator, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { createManualClock } from "../../../core/index.js";
import { LOG_RETENTION_MS, startLogRetention } from "../../../targets/cloud/fleet/log-retention.js";
import { eachChunkEntry, encodeChunk, summaryOf, type ChunkEntry } from "../../../targets/cloud/storage/log-chunk.js";
import { DAY_MS, dropExpiredLogPartitions, makeLogPartitions } from "../../../targets/cloud/storage/log-partitions.js";
import { countLogs, insertLogChunk, queryLogs } from "../../../targets/cloud/storage/logs-store.js";
import { migrations } from "../../../targets/cloud/storage/migrations/index.js";
import type { Store } from "../../../targets/cloud/storage/open-store.js";
import { storeTypes } from "../../../targets/cloud/storage/postgres-types.js";
import { storeBackends, type StorePlace } from "../../helpers/store-backends.js";

const postgres = storeBackends().find((b) => b.name === "postgres")!;
const HOUR = 60 * 60_000;
const text = new TextEncoder();
const words = new TextDecoder();
const entry = (time: number, message: string): ChunkEntry => ({ time, level: 1, bytes: text.encode(message) });

/** log_chunks' partitions, by name. */
async function partitions(store: Store): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = 'log_chunks'::regclass order by c.relname`.execute(store.db);
  return rows.map((r) => r.name);
}

/** Whether a table of that name is anywhere in the database's catalog. */
async function tableExists(store: Store, name: string): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`select count(*) as n from pg_class where relname = ${name}`.execute(store.db);
  return Number(rows[0]!.n) > 0;
}

/** Each chunk's message (its entries' text joined) and the partition holding it, oldest first. */
async function placed(store: Store): Promise<[string, string][]> {
  const { rows } = await sql<{ partition: string; body: Uint8Array }>`select tableoid::regclass::text as partition, body from log_chunks order by id`.execute(store.db);
  return rows.map((r) => {
    const said: string[] = [];
    eachChunkEntry(r.body, (_time, _level, _index, start, end) => said.push(words.decode(r.body.subarray(start, end))));
    return [said.join(" "), r.partition];
  });
}

async function messages(store: Store, partId: string): Promise<string[]> {
  return (await queryLogs(store.db, { partId, levels: [], limit: 100 })).map((e) => words.decode(e.bytes));
}

/** The store at `place` brought only as far as the migration before partitions, with `rows` of log chunks (part, arrival, message). */
async function storeBeforePartitions(place: StorePlace, rows: [string, number, string][]): Promise<void> {
  const pool = new pg.Pool({ connectionString: place.database, types: storeTypes, max: 2 });
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
  try {
    const migrated = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateTo("0011-provisioning-keys");
    expect(migrated.error).toBeUndefined();
    for (const [part, received, message] of rows) {
      const chunk = [entry(received, message)];
      const s = summaryOf(chunk);
      await db
        .insertInto("log_chunks")
        .values({ part_id: part, received, first_time: s.firstTime, last_time: s.lastTime, levels: s.levels, entries: s.entries, body: encodeChunk(chunk) })
        .execute();
    }
  } finally {
    await db.destroy();
  }
}

describe("logs partitioned by day on PostgreSQL", () => {
  it("keep every row of a store from before partitions, readable as before, each in the partition of the day it arrived", async () => {
    const place = await postgres.place();
    const nov28 = Date.UTC(2026, 10, 28);
    await storeBeforePartitions(place, [
      ["rover", nov28 + 1 * HOUR, "first"],
      ["rover", nov28 + 23 * HOUR, "second"],
      ["other", nov28 + DAY_MS + HOUR, "third"],
      ["rover", nov28 + 3 * DAY_MS, "fourth"],
    ]);
    const store = await postgres.open(place);
    expect(await partitions(store)).toEqual(["log_chunks_p20261128", "log_chunks_p20261129", "log_chunks_p20261201"]);
    expect(await placed(store)).toEqual([
      ["first", "log_chunks_p20261128"],
      ["second", "log_chunks_p20261128"],
      ["third", "log_chunks_p20261129"],
      ["fourth", "log_chunks_p20261201"],
    ]);
    expect(await messages(store, "rover")).toEqual(["fourth", "second", "first"]);
    expect(await countLogs(store.db)).toBe(4);
    // The same indexes, on the table and so on each partition, and ids carried on from the old table's.
    const indexes = await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'log_chunks' order by 1`.execute(store.db);
    expect(indexes.rows.map((r) => r.name)).toEqual(["log_chunks_by_part", "log_chunks_by_received", "log_chunks_pkey"]);
    const partitionIndexes = await sql<{ n: number }>`select count(*) as n from pg_indexes where tablename = 'log_chunks_p20261129'`.execute(store.db);
    expect(Number(partitionIndexes.rows[0]!.n)).toBe(3);
    await insertLogChunk(store.db, "rover", nov28 + DAY_MS + 2 * HOUR, [entry(nov28, "fifth")]);
    const ids = await store.db.selectFrom("log_chunks").select("id").orderBy("id").execute();
    expect(ids.map((r) => r.id)).toEqual([1, 2, 3, 4, 5]);
    expect((await placed(store)).at(-1)).toEqual(["fifth", "log_chunks_p20261129"]);
  });

  it("are made for today and the next days when retention starts, and each Log call lands in its arrival day's", async () => {
    const store = await postgres.open();
    expect(await partitions(store)).toEqual([]);
    const clock = createManualClock(Date.UTC(2026, 10, 28, 15));
    const retention = startLogRetention({ db: store.db, clock, log: () => undefined, intervalMs: LOG_RETENTION_MS });
    try {
      await retention.sweep();
      expect(await partitions(store)).toEqual(["log_chunks_p20261128", "log_chunks_p20261129", "log_chunks_p20261130", "log_chunks_p20261201"]);
      await insertLogChunk(store.db, "rover", clock.now(), [entry(0, "from a clock never set")]);
      await insertLogChunk(store.db, "rover", Date.UTC(2026, 10, 30, 23, 59, 59, 999), [entry(clock.now(), "last moment of the 30th")]);
      await insertLogChunk(store.db, "rover", Date.UTC(2026, 11, 1), [entry(clock.now(), "first moment of December")]);
      expect(await placed(store)).toEqual([
        ["from a clock never set", "log_chunks_p20261128"],
        ["last moment of the 30th", "log_chunks_p20261130"],
        ["first moment of December", "log_chunks_p20261201"],
      ]);
    } finally {
      retention.stop();
    }
  });

  it("drop whole each day older than 30 days, delete only the expired rows of the day the cut-off falls in, and keep the rest", async () => {
    const store = await postgres.open();
    const nov1 = Date.UTC(2026, 10, 1);
    const calls: [number, string[]][] = [
      [nov1 + 12 * HOUR, ["a", "b", "c"]],
      [nov1 + DAY_MS + 6 * HOUR, ["d", "e"]],
      [nov1 + DAY_MS + 18 * HOUR, ["f"]],
      [nov1 + 4 * DAY_MS, ["g"]],
    ];
    for (const [received, names] of calls) await insertLogChunk(store.db, "rover", received, names.map((n) => entry(received, n)));
    expect(await partitions(store)).toEqual(["log_chunks_p20261101", "log_chunks_p20261102", "log_chunks_p20261105"]);

    // 30 days after noon on the 2nd: the 1st is wholly expired, the 2nd only until noon.
    const clock = createManualClock(nov1 + DAY_MS + 12 * HOUR + LOG_RETENTION_MS);
    const logged: string[] = [];
    const retention = startLogRetention({ db: store.db, clock, log: (line) => logged.push(line), intervalMs: LOG_RETENTION_MS });
    try {
      expect(await retention.sweep()).toBe(5);
    } finally {
      retention.stop();
    }
    expect(await tableExists(store, "log_chunks_p20261101")).toBe(false);
    expect(await partitions(store)).toEqual(["log_chunks_p20261102", "log_chunks_p20261105", "log_chunks_p20261202", "log_chunks_p20261203", "log_chunks_p20261204", "log_chunks_p20261205"]);
    expect(await messages(store, "rover")).toEqual(["g", "f"]);
    expect(logged).toEqual(["svc-cloud: dropped 1 expired day(s) of log entries (3 entries): log_chunks_p20261101"]);
  });

  it("store a Log call on a day no partition was made for, making the day's partition then", async () => {
    const store = await postgres.open();
    const later = Date.UTC(2031, 4, 6, 7);
    await insertLogChunk(store.db, "rover", later, [entry(later, "one")]);
    // A call whose entries lie far apart is several chunks, written in one transaction.
    const farther = Date.UTC(2032, 0, 1);
    await insertLogChunk(store.db, "rover", farther, [entry(0, "two"), entry(farther, "three")]);
    expect(await partitions(store)).toEqual(["log_chunks_p20310506", "log_chunks_p20320101"]);
    expect(await messages(store, "rover")).toEqual(["three", "one", "two"]);
  });

  it("let two replicas make and drop the same partitions at once, each day made once and counted once", async () => {
    const first = await postgres.open();
    const second = await postgres.peer(first);
    const day = Date.UTC(2026, 10, 28);
    for (let round = 0; round < 4; round++) {
      const at = day + round * 10 * DAY_MS;
      await Promise.all([
        makeLogPartitions(first.db, at),
        makeLogPartitions(second.db, at),
        insertLogChunk(first.db, "rover", at + 5 * DAY_MS, [entry(at, `first ${round}`)]),
        insertLogChunk(second.db, "rover", at + 5 * DAY_MS, [entry(at, `second ${round}`)]),
      ]);
    }
    expect(await partitions(first)).toHaveLength(4 * 5);
    expect(await countLogs(second.db, "rover")).toBe(8);

    const cutoff = day + 40 * DAY_MS;
    const [one, two] = await Promise.all([dropExpiredLogPartitions(first.db, cutoff), dropExpiredLogPartitions(second.db, cutoff)]);
    expect([...one.names, ...two.names].sort()).toEqual(expect.arrayContaining(["log_chunks_p20261128", "log_chunks_p20261203", "log_chunks_p20261228"]));
    expect(one.names.length + two.names.length).toBe(4 * 5);
    expect(one.entries + two.entries).toBe(8);
    expect(await partitions(second)).toEqual([]);
  });
});

// The log store reads pages from whole Log calls (chunks) whose entries interleave in time: any
// set of calls, read a page at a time with each page's cursor, gives every matching entry exactly
// once, newest first (time, then call, then place in the call), as a plain sort of all entries
// would. Levels, time ranges and a text filter narrow it the same way. And an old store, made when
// each entry was a row of its own, keeps every entry when it moves to chunks.
import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromMs, timestampMs } from "@bufbuild/protobuf/wkt";
import Database from "better-sqlite3";
import fc from "fast-check";
import { Kysely, Migrator, SqliteDialect } from "kysely";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LogEntrySchema } from "../../proto/gen/common/v1/common_pb.js";
import { entryOf, entryMessage, textFilter } from "../../targets/cloud/api/logs-entries.js";
import { MAX_CHUNK_SPAN_MS } from "../../targets/cloud/storage/log-chunk.js";
import { countLogs, insertLogChunk, queryLogs, type LogCursor } from "../../targets/cloud/storage/logs-store.js";
import { migrations } from "../../targets/cloud/storage/migrations/index.js";
import { openStore, storeFile, type Store } from "../../targets/cloud/storage/open-store.js";
import { nextTurn } from "../../targets/cloud/server/next-turn.js";

let dir: string;
let store: Store;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "svc-logs-store-"));
  store = await openStore(join(dir, "current"));
});
afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Made {
  time: number;
  level: number;
  chunk: number;
  index: number;
  message: string;
}

const bytesOf = (message: string, time: number) => toBinary(LogEntrySchema, create(LogEntrySchema, { host: "h", level: "info", message, time: timestampFromMs(time) }));

// A call: up to 12 entries, times in steps of 4 minutes, so that calls overlap and tie, and some
// are stored as several chunks (MAX_CHUNK_SPAN_MS).
const STEP = 4 * 60_000;
const calls = fc.array(fc.array(fc.record({ time: fc.integer({ min: 0, max: 40 }).map((t) => t * STEP), level: fc.integer({ min: 0, max: 6 }), word: fc.constantFrom("arm", "base", "ARM fault") }), { minLength: 1, maxLength: 12 }), {
  minLength: 1,
  maxLength: 12,
});

let parts = 0;

async function stored(made: { time: number; level: number; word: string }[][]) {
  const partId = `part-${parts++}`;
  const all: Made[] = [];
  // A later call's chunks have larger ids, and a call cut into several chunks keeps its order:
  // (chunk, place in it) orders entries as (call, place in the call) does.
  for (const [chunk, call] of made.entries()) {
    const entries = call.map((e, i) => ({ time: e.time, level: e.level, bytes: bytesOf(`${e.word} ${all.length + i}`, e.time) }));
    await insertLogChunk(store.db, partId, 0, entries);
    entries.forEach((e, index) => all.push({ time: e.time, level: e.level, chunk, index, message: entryMessage(e.bytes) }));
  }
  return { partId, all };
}

const newestFirst = (a: Made, b: Made) => b.time - a.time || b.chunk - a.chunk || b.index - a.index;

describe("a part's log pages", () => {
  it("give every matching entry once, newest first, page after page", async () => {
    const query = fc.record({
      levels: fc.subarray([0, 1, 2, 3, 4, 5, 6]),
      startMs: fc.option(fc.integer({ min: 0, max: 40 }).map((t) => t * STEP), { nil: undefined }),
      endMs: fc.option(fc.integer({ min: 0, max: 40 }).map((t) => t * STEP), { nil: undefined }),
      filter: fc.constantFrom(undefined, "arm", "FAULT"),
      limit: fc.integer({ min: 1, max: 9 }),
    });
    await fc.assert(
      fc.asyncProperty(calls, query, async (made, q) => {
        const { partId, all } = await stored(made);
        const expected = all
          .filter((e) => q.levels.length === 0 || q.levels.includes(e.level))
          .filter((e) => (q.startMs === undefined || e.time >= q.startMs) && (q.endMs === undefined || e.time <= q.endMs))
          .filter((e) => q.filter === undefined || e.message.toLowerCase().includes(q.filter.toLowerCase()))
          .sort(newestFirst)
          .map((e) => e.message);
        const seen: string[] = [];
        let before: LogCursor | undefined;
        for (let page = 0; page < 200; page++) {
          const rows = await queryLogs(store.db, { partId, levels: q.levels, startMs: q.startMs, endMs: q.endMs, matches: textFilter(q.filter), before, limit: q.limit });
          seen.push(...rows.map((r) => entryMessage(r.bytes)));
          if (rows.length < q.limit) break;
          before = rows.at(-1);
        }
        expect(seen).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });

  it("stores a call whose entries lie far apart in time as few chunks as their times allow, each within MAX_CHUNK_SPAN_MS", async () => {
    const times = [0, MAX_CHUNK_SPAN_MS, MAX_CHUNK_SPAN_MS + 1, 5, 10 * MAX_CHUNK_SPAN_MS, 10 * MAX_CHUNK_SPAN_MS - 3];
    await insertLogChunk(store.db, "spread", 0, times.map((time, i) => ({ time, level: 1, bytes: bytesOf(`s${i}`, time) })));
    const chunks = await store.db.selectFrom("log_chunks").select(["first_time", "last_time", "entries"]).where("part_id", "=", "spread").orderBy("id").execute();
    // Taken in time order, so entries that interleave make no more chunks than their times need.
    expect(chunks.map((c) => [Number(c.first_time), Number(c.last_time), c.entries])).toEqual([
      [0, MAX_CHUNK_SPAN_MS, 3],
      [MAX_CHUNK_SPAN_MS + 1, MAX_CHUNK_SPAN_MS + 1, 1],
      [10 * MAX_CHUNK_SPAN_MS - 3, 10 * MAX_CHUNK_SPAN_MS, 2],
    ]);
    const page = await queryLogs(store.db, { partId: "spread", levels: [], limit: 10 });
    expect(page.map((r) => entryMessage(r.bytes))).toEqual(["s4", "s5", "s2", "s1", "s3", "s0"]);
  });

  it("reads back each entry as it came, with the level and time it was stored under", async () => {
    const bytes = toBinary(LogEntrySchema, create(LogEntrySchema, { host: "robot", level: "WARN", loggerName: "rdk", message: "hot", caller: { File: "a.go", Line: 3 }, fields: [{ n: 1 }] }));
    await insertLogChunk(store.db, "as-it-came", 5, [{ time: 1234, level: 2, bytes }]);
    const [row] = await queryLogs(store.db, { partId: "as-it-came", levels: [], limit: 10 });
    // Its own bytes, not a view keeping its chunk's whole body.
    expect(row!.bytes.buffer.byteLength).toBe(bytes.length);
    const entry = entryOf(row!);
    expect(entry).toMatchObject({ host: "robot", level: "warn", loggerName: "rdk", message: "hot", caller: { File: "a.go", Line: 3 }, fields: [{ n: 1 }] });
    expect(timestampMs(entry.time!)).toBe(1234);
    expect(await countLogs(store.db, "as-it-came")).toBe(1);
  });

  it("answers an entry it cannot read as what it is, and the rest of the page as usual", async () => {
    const good = bytesOf("fine", 2);
    await insertLogChunk(store.db, "damaged", 5, [
      { time: 1, level: 1, bytes: new Uint8Array([0x2a, 0x7f]) },
      { time: 2, level: 1, bytes: good },
    ]);
    const rows = await queryLogs(store.db, { partId: "damaged", levels: [], limit: 10 });
    expect(rows.map((r) => entryOf(r).message)).toEqual(["fine", expect.stringMatching(/^\(svc-cloud could not read this entry: /)]);
  });
});

describe("a long walk through a part's chunks", () => {
  it("lets other reads and the event loop (sockets, timers) through while it runs, and stops when its call is aborted", async () => {
    // 2,000 calls of 50 entries, none of which the filter matches: the page walks them all.
    const entries = Array.from({ length: 50 }, (_, i) => ({ time: i, level: 1, bytes: bytesOf(`tick ${i}`, i) }));
    await store.db.transaction().execute(async (tx) => {
      for (let c = 0; c < 2000; c++) await insertLogChunk(tx, "chatty", 0, entries.map((e) => ({ ...e, time: c * 60_000 + e.time })));
    });
    await insertLogChunk(store.db, "quiet", 0, [{ time: 1, level: 1, bytes: bytesOf("hello", 1) }]);

    const finished: string[] = [];
    const long = queryLogs(store.db, { partId: "chatty", levels: [], matches: textFilter("no such text"), limit: 10, turn: nextTurn }).then((rows) => {
      finished.push("long");
      return rows;
    });
    const short = queryLogs(store.db, { partId: "quiet", levels: [], limit: 10 }).then((rows) => {
      finished.push("short");
      return rows;
    });
    // What the event loop holds (a socket's data, a timer) comes next, not after the walk.
    const loop = new Promise<void>((resolve) => setImmediate(resolve)).then(() => finished.push("event loop"));
    expect((await short).map((r) => entryMessage(r.bytes))).toEqual(["hello"]);
    expect(await long).toEqual([]);
    await loop;
    expect(finished).toEqual(["short", "event loop", "long"]);

    const call = new AbortController();
    const aborted = queryLogs(store.db, { partId: "chatty", levels: [], matches: textFilter("no such text"), limit: 10, signal: call.signal });
    call.abort(new Error("the client went away"));
    await expect(aborted).rejects.toThrow("the client went away");
  });
});

describe("a store from before chunks", () => {
  it("moves every entry of every part into chunks, field for field, in order", async () => {
    const oldDir = join(dir, "old");
    mkdirSync(oldDir);
    const sqlite = new Database(storeFile(oldDir));
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: sqlite }) });
    const migrated = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateTo("0006-releases");
    expect(migrated.error).toBeUndefined();
    const rows = Array.from({ length: 2500 }, (_, i) => ({
      part_id: i % 3 === 0 ? "old-a" : "old-b",
      time: 1_700_000_000_000 + Math.floor(i / 2),
      level: ["debug", "info", "warn", "error"][i % 4],
      host: "robot",
      logger: "rdk.resource_manager",
      message: `old ${i}`,
      caller: i % 2 === 0 ? JSON.stringify({ File: "m.go", Line: i }) : null,
      stack: i % 5 === 0 ? "goroutine 1" : "",
      fields: JSON.stringify([{ i }]),
    }));
    for (let i = 0; i < rows.length; i += 100) await db.insertInto("logs").values(rows.slice(i, i + 100)).execute();
    await db.destroy();

    const reopened = await openStore(oldDir);
    try {
      expect(await countLogs(reopened.db, "old-a")).toBe(834);
      expect(await countLogs(reopened.db, "old-b")).toBe(1666);
      const page = await queryLogs(reopened.db, { partId: "old-a", levels: [3], limit: 1000 });
      const expected = rows.filter((r) => r.part_id === "old-a" && r.level === "error").reverse();
      expect(page.map((r) => entryMessage(r.bytes))).toEqual(expected.map((r) => r.message));
      const first = entryOf(page.at(-1)!);
      const source = expected.at(-1)!;
      expect(first).toMatchObject({ host: "robot", level: "error", loggerName: "rdk.resource_manager", message: source.message, stack: source.stack, fields: [{ i: 3 }] });
      expect(first.caller).toEqual(JSON.parse(source.caller ?? "null") ?? undefined);
      expect(timestampMs(first.time!)).toBe(source.time);
      const tables = await reopened.db.introspection.getTables();
      expect(tables.map((t) => t.name)).not.toContain("logs");
    } finally {
      await reopened.close();
    }
  });
});

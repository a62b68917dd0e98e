// Machines' logs at the store level, on SQLite and PostgreSQL alike: a Log call's entries kept as
// chunks (several when their times lie far apart), read a page at a time newest first by level
// mask, time range, text and cursor, counted by level over a range, and deleted only by age, a
// chunk at a time. The chunk format itself reads back what it was given.
import { describe, expect, it } from "vitest";
import { chunksWithin, eachChunkEntry, encodeChunk, MAX_CHUNK_SPAN_MS, summaryOf, type ChunkEntry } from "../../../targets/cloud/storage/log-chunk.js";
import { countLogs, deleteLogsBefore, insertLogChunk, logVolume, queryLogs, type StoredLog } from "../../../targets/cloud/storage/logs-store.js";
import { SEED_TIME } from "../../helpers/store-seed.js";
import { storeBackends } from "../../helpers/store-backends.js";

const backends = storeBackends();
const LEVEL = { debug: 0, info: 1, warn: 2, error: 3 } as const;
const text = new TextEncoder();
const words = new TextDecoder();
const entry = (time: number, level: number, message: string): ChunkEntry => ({ time, level, bytes: text.encode(message) });
const messages = (found: StoredLog[]) => found.map((e) => words.decode(e.bytes));

describe.each(backends)("the logs store on $name", (backend) => {
  it("reads a part's entries newest first, by level mask, time range and text", async () => {
    const store = await backend.open();
    const t = SEED_TIME;
    await insertLogChunk(store.db, "rover", t + 100, [entry(t + 1, LEVEL.info, "one"), entry(t + 2, LEVEL.error, "two"), entry(t + 3, LEVEL.debug, "three")]);
    await insertLogChunk(store.db, "rover", t + 200, [entry(t + 4, LEVEL.warn, "four"), entry(t + 5, LEVEL.info, "five")]);
    await insertLogChunk(store.db, "other", t + 200, [entry(t + 6, LEVEL.info, "elsewhere")]);
    const page = (query: Partial<Parameters<typeof queryLogs>[1]>) => queryLogs(store.db, { partId: "rover", levels: [], limit: 10, ...query }).then(messages);
    expect(await page({})).toEqual(["five", "four", "three", "two", "one"]);
    expect(await page({ levels: [LEVEL.info, LEVEL.error] })).toEqual(["five", "two", "one"]);
    expect(await page({ levels: [LEVEL.warn] })).toEqual(["four"]);
    expect(await page({ startMs: t + 2, endMs: t + 4 })).toEqual(["four", "three", "two"]);
    expect(await page({ matches: (bytes) => words.decode(bytes).includes("f") })).toEqual(["five", "four"]);
    expect(await page({ levels: [6] })).toEqual([]);
    expect(await countLogs(store.db, "rover")).toBe(5);
    expect(await countLogs(store.db)).toBe(6);
  });

  it("pages with the previous page's last entry as cursor, every entry once, ties by call then place", async () => {
    const store = await backend.open();
    const t = SEED_TIME;
    await insertLogChunk(store.db, "rover", t, [entry(t, LEVEL.info, "a0"), entry(t, LEVEL.info, "a1"), entry(t + 1, LEVEL.info, "a2")]);
    await insertLogChunk(store.db, "rover", t, [entry(t, LEVEL.info, "b0"), entry(t + 1, LEVEL.info, "b1")]);
    const seen: string[] = [];
    let before: StoredLog | undefined;
    for (;;) {
      const found = await queryLogs(store.db, { partId: "rover", levels: [], limit: 2, before });
      if (found.length === 0) break;
      seen.push(...messages(found));
      before = found.at(-1);
    }
    expect(seen).toEqual(["b1", "a2", "b0", "a1", "a0"]);
  });

  it("stores a call whose entries lie far apart as several chunks, read back as one order", async () => {
    const store = await backend.open();
    const t = SEED_TIME;
    const far = t + 3 * MAX_CHUNK_SPAN_MS;
    await insertLogChunk(store.db, "rover", t, [entry(far, LEVEL.info, "late"), entry(t, LEVEL.info, "early"), entry(far + 1, LEVEL.warn, "later")]);
    expect(await store.db.selectFrom("log_chunks").select(["first_time", "last_time", "levels", "entries"]).orderBy("id").execute()).toEqual([
      { first_time: t, last_time: t, levels: 1 << LEVEL.info, entries: 1 },
      { first_time: far, last_time: far + 1, levels: (1 << LEVEL.info) | (1 << LEVEL.warn), entries: 2 },
    ]);
    expect(messages(await queryLogs(store.db, { partId: "rover", levels: [], limit: 10 }))).toEqual(["later", "late", "early"]);
    expect(messages(await queryLogs(store.db, { partId: "rover", levels: [], limit: 10, endMs: t + MAX_CHUNK_SPAN_MS }))).toEqual(["early"]);
  });

  it("counts a part's entries by level in spans of a range", async () => {
    const store = await backend.open();
    const t = SEED_TIME;
    await insertLogChunk(store.db, "rover", t, [entry(t, LEVEL.info, "x"), entry(t + 10, LEVEL.error, "y"), entry(t + 15, LEVEL.error, "z"), entry(t + 25, LEVEL.info, "out")]);
    const counts = await logVolume(store.db, { partId: "rover", startMs: t, endMs: t + 20, buckets: 2 });
    expect(counts).toEqual([
      [0, 1, 0, 0, 0, 0, 0],
      [0, 0, 0, 2, 0, 0, 0],
    ]);
  });

  it("deletes the oldest chunks taken in before a time, a batch at a time", async () => {
    const store = await backend.open();
    const t = SEED_TIME;
    for (let i = 0; i < 5; i++) await insertLogChunk(store.db, "rover", t + i, [entry(t, LEVEL.info, `m${i}`), entry(t, LEVEL.info, `n${i}`)]);
    expect(await deleteLogsBefore(store.db, t + 3, 2)).toEqual({ chunks: 2, entries: 4 });
    expect(await deleteLogsBefore(store.db, t + 3, 2)).toEqual({ chunks: 1, entries: 2 });
    expect(await deleteLogsBefore(store.db, t + 3, 2)).toEqual({ chunks: 0, entries: 0 });
    expect(await countLogs(store.db, "rover")).toBe(4);
  });
});

describe("a log chunk's body", () => {
  it("gives back each entry's time, level, place and bytes, and refuses a format it does not know", () => {
    const entries = [entry(2 ** 45, 6, "big time"), entry(0, 0, ""), entry(5, 3, "x".repeat(300))];
    const body = encodeChunk(entries);
    const read: [number, number, number, string][] = [];
    eachChunkEntry(body, (time, level, index, start, end) => read.push([time, level, index, words.decode(body.subarray(start, end))]));
    expect(read).toEqual([[2 ** 45, 6, 0, "big time"], [0, 0, 1, ""], [5, 3, 2, "x".repeat(300)]]);
    expect(summaryOf(entries)).toEqual({ firstTime: 0, lastTime: 2 ** 45, levels: (1 << 6) | 1 | (1 << 3), entries: 3 });
    expect(chunksWithin([entry(0, 1, "a"), entry(MAX_CHUNK_SPAN_MS, 1, "b"), entry(MAX_CHUNK_SPAN_MS + 1, 1, "c")]).map((c) => c.length)).toEqual([2, 1]);
    expect(() => eachChunkEntry(Uint8Array.of(9), () => undefined)).toThrow(/format 9/);
    expect(() => eachChunkEntry(Uint8Array.of(1, 5), () => undefined)).toThrow(/cut short/);
  });
});

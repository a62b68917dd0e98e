// A log tail on PostgreSQL follows its part through the store (fleet/log-tail-source.ts), as it must
// when the machine logs through another replica: it hands on what is stored after it opens and
// nothing from before, each chunk once, never another part's; a chunk whose id was taken first but
// committed last (ids from a sequence commit out of order) is still handed on; once stopped it reads
// no more; and a store that fails ends it with Unavailable. The tails of one source share one read
// of the newest chunk's arrival per look period, however many look and whenever each does, and a
// failure of that read ends every tail that waited on it. On a real PostgreSQL; the test's clock
// drives the looks.
import type { CompiledQuery, Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import { Code, type SvcError } from "../../core/index.js";
import { createManualClock, type ManualClock } from "../../core/manual-clock.js";
import { createLogBus } from "../../targets/cloud/fleet/log-bus.js";
import { logTailSource, TAIL_POLL_MS, type TailListener } from "../../targets/cloud/fleet/log-tail-source.js";
import type { ChunkEntry } from "../../targets/cloud/storage/log-chunk.js";
import { insertLogChunk } from "../../targets/cloud/storage/logs-store.js";
import type { Store } from "../../targets/cloud/storage/open-store.js";
import type { Tables } from "../../targets/cloud/storage/tables.js";
import { eventually } from "../helpers/eventually.js";
import { storeBackends } from "../helpers/store-backends.js";

const postgres = storeBackends().find((backend) => backend.name === "postgres")!;
const T = Date.UTC(2026, 0, 1, 12);

const entry = (message: string): ChunkEntry => ({ time: T, level: 1, bytes: new TextEncoder().encode(message) });

function listening() {
  const heard: string[] = [];
  const failures: SvcError[] = [];
  const listener: TailListener = {
    entries: (batch) => heard.push(...batch.map((e) => new TextDecoder().decode(e.bytes))),
    failed: (error) => failures.push(error),
  };
  return { heard, failures, listener };
}

/** Lets the tail's next look come and waits for it to end (its next look is then set). */
async function look(clock: ManualClock): Promise<void> {
  clock.advance(TAIL_POLL_MS);
  await eventually(() => (clock.pending() === 1 ? true : undefined), "the tail's look to end");
}

/** Lets every look due within the next period come, one at a time, each ended before the next. */
async function period(clock: ManualClock): Promise<void> {
  const end = clock.now() + TAIL_POLL_MS;
  const waiting = clock.pending();
  while (clock.fireNext(end)) await eventually(() => (clock.pending() === waiting ? true : undefined), "a tail's look to end");
  clock.advance(end - clock.now());
}

/** `store` with a count of the statements that read the newest chunk's arrival, as they go to PostgreSQL. */
function countingNewestReads(store: Store): { store: Store; reads: () => number } {
  let reads = 0;
  const db = new Proxy(store.db, {
    get(target, key) {
      if (key === "executeQuery") {
        return (query: CompiledQuery) => {
          if (query.sql.includes('max("received")')) reads++;
          return target.executeQuery(query);
        };
      }
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  }) as Kysely<Tables>;
  return { store: { ...store, db }, reads: () => reads };
}

function follow(store: Store, clock: ManualClock, partId: string, listener: TailListener) {
  return logTailSource({ store, bus: createLogBus(), clock }).follow(partId, listener);
}

describe("a log tail on PostgreSQL", () => {
  it("hands on each chunk stored after it opened once, in order, and only its part's", async () => {
    // Stored through one replica, followed through another.
    const storing = await postgres.open();
    const { db } = storing;
    const store = await postgres.peer(storing);
    const clock = createManualClock(T);
    await insertLogChunk(db, "rover", T, [entry("before")]);
    const { heard, failures, listener } = listening();
    const stop = await follow(store, clock, "rover", listener);

    await insertLogChunk(db, "rover", T + 1000, [entry("first"), entry("second")]);
    await insertLogChunk(db, "other", T + 1000, [entry("another part's")]);
    await look(clock);
    expect(heard).toEqual(["first", "second"]);
    await look(clock);
    expect(heard).toEqual(["first", "second"]);

    stop();
    await insertLogChunk(db, "rover", T + 2000, [entry("after the tail stopped")]);
    clock.advance(10 * TAIL_POLL_MS);
    expect(clock.pending()).toBe(0);
    expect(heard).toEqual(["first", "second"]);
    expect(failures).toEqual([]);
  });

  it("hands on a chunk committed after a chunk with a later id", async () => {
    const store = await postgres.open();
    const { db } = store;
    const clock = createManualClock(T);
    await insertLogChunk(db, "rover", T, [entry("before")]);
    const { heard, listener } = listening();
    await follow(store, clock, "rover", listener);

    let inserted!: () => void;
    let commit!: () => void;
    const slowInserted = new Promise<void>((resolve) => (inserted = resolve));
    const committing = new Promise<void>((resolve) => (commit = resolve));
    const slow = db.transaction().execute(async (trx) => {
      await insertLogChunk(trx, "rover", T + 1000, [entry("slow")]);
      inserted();
      await committing;
    });
    await slowInserted;
    await insertLogChunk(db, "rover", T + 1100, [entry("quick")]);
    await look(clock);
    expect(heard).toEqual(["quick"]);
    commit();
    await slow;
    await look(clock);
    expect(heard).toEqual(["quick", "slow"]);
    await look(clock);
    expect(heard).toEqual(["quick", "slow"]);
    const stored = await db.selectFrom("log_chunks").select("received").where("part_id", "=", "rover").orderBy("id").execute();
    expect(stored.map((row) => Number(row.received) - T)).toEqual([0, 1000, 1100]);
  });

  it("shares one read of the newest among its tails, each handed only its own part's chunks, in order", async () => {
    const storing = await postgres.open();
    const { db } = storing;
    const counted = countingNewestReads(await postgres.peer(storing));
    const clock = createManualClock(T);
    await insertLogChunk(db, "part-0", T, [entry("before")]);
    const source = logTailSource({ store: counted.store, bus: createLogBus(), clock });
    const parts = ["part-0", "part-1", "part-2", "part-3", "part-4"];
    const tails = [];
    for (const [i, part] of parts.entries()) {
      // Each opens a fifth of a period after the one before, so no two look at the same time.
      if (i > 0) clock.advance(TAIL_POLL_MS / parts.length);
      const { heard, failures, listener } = listening();
      tails.push({ part, heard, failures, stop: await source.follow(part, listener) });
    }

    const opened = counted.reads();
    const periods = 4;
    for (let round = 0; round < periods; round++) {
      for (const [i, part] of [...parts].reverse().entries()) {
        await insertLogChunk(db, part, T + 1000 * (round + 1) + i, [entry(`${part} ${round}a`), entry(`${part} ${round}b`)]);
        await insertLogChunk(db, part, T + 1000 * (round + 1) + i, [entry(`${part} ${round}c`)]);
      }
      await period(clock);
    }
    const reads = counted.reads() - opened;
    // One read a period (one more when a period's first look comes just before a read ages out), not one per tail and look.
    expect(reads).toBeGreaterThanOrEqual(periods - 1);
    expect(reads).toBeLessThanOrEqual(periods + 1);

    for (const { part, heard, failures } of tails) {
      expect(heard).toEqual(Array.from({ length: periods }, (_, round) => [`${part} ${round}a`, `${part} ${round}b`, `${part} ${round}c`]).flat());
      expect(failures).toEqual([]);
    }
    for (const { stop } of tails) stop();
    clock.advance(10 * TAIL_POLL_MS);
    expect(clock.pending()).toBe(0);
    expect(counted.reads() - opened).toBe(reads);
  });

  it("ends every tail that waited on a failed read of the newest with Unavailable", async () => {
    const store = await postgres.open();
    const clock = createManualClock(T);
    const source = logTailSource({ store, bus: createLogBus(), clock });
    const rover = listening();
    const other = listening();
    await source.follow("rover", rover.listener);
    await source.follow("other", other.listener);
    await store.close();
    clock.advance(TAIL_POLL_MS);
    await eventually(() => (rover.failures.length > 0 && other.failures.length > 0 ? true : undefined), "both tails to fail");
    for (const { failures } of [rover, other]) {
      expect(failures.map((e) => [e.code, e.message])).toEqual([[Code.Unavailable, expect.stringMatching(/^following the part's logs in the store failed/)]]);
    }
    expect(clock.pending()).toBe(0);
  });

  it("ends with Unavailable when the store fails", async () => {
    const store = await postgres.open();
    const clock = createManualClock(T);
    const { failures, listener } = listening();
    await follow(store, clock, "rover", listener);
    await store.close();
    clock.advance(TAIL_POLL_MS);
    await eventually(() => (failures.length > 0 ? true : undefined), "the tail to fail");
    expect(failures.map((e) => [e.code, e.message])).toEqual([[Code.Unavailable, expect.stringMatching(/^following the part's logs in the store failed/)]]);
    expect(clock.pending()).toBe(0);
  });
});

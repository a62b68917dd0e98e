// A log tail on PostgreSQL follows its part through the store (fleet/log-tail-source.ts), as it must
// when the machine logs through another replica: it hands on what is stored after it opens and
// nothing from before, each chunk once, never another part's; a chunk whose id was taken first but
// committed last (ids from a sequence commit out of order) is still handed on; once stopped it reads
// no more; and a store that fails ends it with Unavailable. On a real PostgreSQL; the test's clock
// drives the looks.
import { describe, expect, it } from "vitest";
import { Code, type SvcError } from "../../core/index.js";
import { createManualClock, type ManualClock } from "../../core/manual-clock.js";
import { createLogBus } from "../../targets/cloud/fleet/log-bus.js";
import { logTailSource, TAIL_POLL_MS, type TailListener } from "../../targets/cloud/fleet/log-tail-source.js";
import type { ChunkEntry } from "../../targets/cloud/storage/log-chunk.js";
import { insertLogChunk } from "../../targets/cloud/storage/logs-store.js";
import type { Store } from "../../targets/cloud/storage/open-store.js";
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

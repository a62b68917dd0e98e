// Reads by id that many calls make at the same moment, made as one statement. After a fragment is
// edited, every machine using it fetches its Config at once, and each would read its part and the
// fragment's revision by itself: on PostgreSQL a statement each, whose round trip costs the
// replica far more than the row. Here a read is sent at once when none is on its way; the ids
// asked for while one is on its way wait for it to come back and are then read together, each
// caller getting its own row. A lone call waits for nothing; a crowd is read in a few statements.
//
// Nothing is stale: a caller joins a read that has not been sent yet, never one already on its
// way, so what it gets was read after it asked. A read inside a transaction is made alone, in it.
import type { Kysely } from "kysely";
import type { Tables } from "./tables.js";

export interface BatchedReads<V> {
  /** `id`'s row, undefined when there is none: read with every other id asked for meanwhile. */
  read(db: Kysely<Tables>, id: string): Promise<V | undefined>;
}

/** Reads `ids` (distinct, at most `most`), answering each found id's row. */
export type ReadByIds<V> = (db: Kysely<Tables>, ids: readonly string[]) => Promise<ReadonlyMap<string, V>>;

interface Waiter<V> {
  resolve(value: V | undefined): void;
  reject(reason: unknown): void;
}

/** One store's reads: the ids asked for and not sent yet, with who asked, and whether a read is on its way. */
interface Queue<V> {
  asked: Map<string, Waiter<V>[]>;
  sending: boolean;
}

/** Ids one statement reads at most; the rest are read by more statements beside it. */
const MOST_IDS = 500;

export function batchedReads<V>(readByIds: ReadByIds<V>, most = MOST_IDS): BatchedReads<V> {
  const queues = new Map<Kysely<Tables>, Queue<V>>();

  const readSome = async (db: Kysely<Tables>, asked: Map<string, Waiter<V>[]>, ids: string[]) => {
    const answer = (each: (waiter: Waiter<V>, id: string) => void) => ids.forEach((id) => asked.get(id)!.forEach((waiter) => each(waiter, id)));
    try {
      const rows = await readByIds(db, ids);
      answer((waiter, id) => waiter.resolve(rows.get(id)));
    } catch (thrown) {
      answer((waiter) => waiter.reject(thrown));
    }
  };

  const send = async (db: Kysely<Tables>, queue: Queue<V>): Promise<void> => {
    queue.sending = true;
    while (queue.asked.size > 0) {
      const asked = queue.asked;
      queue.asked = new Map();
      const ids = [...asked.keys()];
      const slices: Promise<void>[] = [];
      for (let from = 0; from < ids.length; from += most) slices.push(readSome(db, asked, ids.slice(from, from + most)));
      await Promise.all(slices);
    }
    queue.sending = false;
    queues.delete(db);
  };

  return {
    async read(db, id) {
      if (db.isTransaction) return (await readByIds(db, [id])).get(id);
      let queue = queues.get(db);
      if (queue === undefined) queues.set(db, (queue = { asked: new Map(), sending: false }));
      const waiting = new Promise<V | undefined>((resolve, reject) => {
        const waiters = queue.asked.get(id);
        if (waiters === undefined) queue.asked.set(id, [{ resolve, reject }]);
        else waiters.push({ resolve, reject });
      });
      if (!queue.sending) void send(db, queue);
      return waiting;
    },
  };
}

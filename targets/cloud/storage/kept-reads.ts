// Reads kept between calls, each used again only while the tables it read are unchanged
// (table-versions.ts), so what is answered is always what the store says now. A read inside a
// transaction is neither kept nor answered from what was kept. Bounded: past `max` entries a store
// starts afresh. Each store keeps its own.
import type { Kysely } from "kysely";
import type { Tables } from "./tables.js";
import type { TableVersions } from "./table-versions.js";

export interface KeptReads<V> {
  /** What `load` answers for `key`, from a read kept since no table it read changed, or read now. */
  read(store: { db: Kysely<Tables>; versions: TableVersions }, key: string, load: (db: Kysely<Tables>) => Promise<V>): Promise<V>;
}

export function keptReads<V>(tables: readonly string[], max = 20_000): KeptReads<V> {
  const stores = new WeakMap<TableVersions, Map<string, { stamp: number; value: V }>>();
  return {
    async read({ db, versions }, key, load) {
      if (db.isTransaction) return load(db);
      // Taken before reading: a change while the read runs leaves it stale, and so not used again.
      const stamp = versions.stamp(tables);
      let kept = stores.get(versions);
      const entry = kept?.get(key);
      if (entry !== undefined && entry.stamp === stamp) return entry.value;
      const value = await load(db);
      if (kept === undefined) stores.set(versions, (kept = new Map()));
      if (kept.size >= max) kept.clear();
      kept.set(key, { stamp, value });
      return value;
    },
  };
}

// How a replica on PostgreSQL knows another process wrote what it keeps between calls (the keys
// and people every call is checked against): the database's own triggers send a notice naming the
// table on the replicas' channel when such a write commits
// (storage/migrations/0016-kept-tables-notify.ts), and the table is marked written
// (storage/table-versions.ts), so what was kept of it is read afresh: a key revoked through one
// replica is refused by the others once the notice reaches them, a moment after the commit.
// While the channel is not listening (its connection was lost), no notice can be heard, so every
// read is taken as possibly stale; once it listens again, everything kept before is read afresh.
import type { Store } from "../storage/store.js";
import type { ReplicaChannel } from "./replica-channel.js";

/** The topic the database's triggers send on. */
export const TABLES_TOPIC = "tables";

/** Lets `store` keep reads between calls for as long as `channel` says no other process wrote them. */
export function followForeignWrites(store: Store, channel: ReplicaChannel): () => void {
  if (store.hearForeignWrites === undefined) return () => {};
  let version = 0;
  const stopHearing = channel.on(TABLES_TOPIC, (table) => store.versions.foreign(table === "" ? undefined : [table]));
  const stopResync = channel.onResync(() => version++);
  store.hearForeignWrites(() => (channel.listening() ? version : {}));
  return () => {
    store.hearForeignWrites?.(() => ({}));
    stopHearing();
    stopResync();
  };
}

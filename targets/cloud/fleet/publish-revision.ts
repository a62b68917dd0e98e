// Tells the machines a part's config changed: whoever saves a revision calls this after the save
// has committed, and every WatchRevisions stream of the part sends the notice at once. It reads
// the part's current revision, so a notice never names one that a later save already replaced.
import type { Kysely } from "kysely";
import { currentRevision } from "../storage/revisions.js";
import type { Tables } from "../storage/tables.js";
import type { RevisionBus } from "./revision-bus.js";

export async function publishRevision(db: Kysely<Tables>, bus: RevisionBus, partId: string): Promise<void> {
  const row = await currentRevision(db, partId);
  bus.publish({ partId, revision: row.revision, time: Number(row.created_at) });
}

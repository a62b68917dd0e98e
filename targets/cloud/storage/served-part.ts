// A part as a machine's Config call needs it, in one read: the part's row, its current revision's
// own config and time, and the location it is in (the names it is reached by come from it). The
// parts asked for at the same moment (every machine of a fragment, after its edit) are read by one
// statement (batched-reads.ts).
import type { Kysely } from "kysely";
import { batchedReads } from "./batched-reads.js";
import { preparedQuery } from "./prepared-query.js";
import type { PartsTable, Tables } from "./tables.js";

export interface ServedPart {
  readonly part: PartsTable;
  /** The current revision's own config, as stored (JSON). */
  readonly ownConfig: string;
  /** When the current revision was made (ms). */
  readonly revisionTime: number;
  readonly location: { readonly id: string; readonly name: string };
}

type Row = Awaited<ReturnType<typeof servedPartQuery.all>>[number];

// One part's read has one shape, kept (prepared-query.ts); several parts' vary with their count.
const servedPartsQuery = (db: Kysely<Tables>) =>
  db
    .selectFrom("parts")
    .innerJoin("part_revisions", (join) => join.onRef("part_revisions.part_id", "=", "parts.id").onRef("part_revisions.revision", "=", "parts.revision"))
    .innerJoin("machines", "machines.id", "parts.machine_id")
    .innerJoin("locations", "locations.id", "machines.location_id")
    .selectAll("parts")
    .select(["part_revisions.config as own_config", "part_revisions.created_at as revision_time", "locations.id as location_id", "locations.name as location_name"])
    .where("parts.deleted_at", "is", null);

const servedPartQuery = preparedQuery((db, id) => servedPartsQuery(db).where("parts.id", "=", id));

const servedParts = batchedReads(async (db, ids) => {
  const rows: Row[] = ids.length === 1 ? await servedPartQuery.all(db, ids[0]!) : await servedPartsQuery(db).where("parts.id", "in", ids).execute();
  return new Map(
    rows.map(({ own_config, revision_time, location_id, location_name, ...part }) => [
      part.id,
      { part, ownConfig: own_config, revisionTime: Number(revision_time), location: { id: location_id, name: location_name } },
    ]),
  );
});

/** The part (not deleted) with its current revision and location; undefined when there is none. */
export function servedPart(db: Kysely<Tables>, partId: string): Promise<ServedPart | undefined> {
  return servedParts.read(db, partId);
}

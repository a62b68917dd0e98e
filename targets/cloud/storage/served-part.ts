// A part as a machine's Config call needs it, in one read: the part's row, its current revision's
// own config and time, and the location it is in (the names it is reached by come from it).
import type { Kysely } from "kysely";
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

const servedPartQuery = preparedQuery((db, id) =>
  db
    .selectFrom("parts")
    .innerJoin("part_revisions", (join) => join.onRef("part_revisions.part_id", "=", "parts.id").onRef("part_revisions.revision", "=", "parts.revision"))
    .innerJoin("machines", "machines.id", "parts.machine_id")
    .innerJoin("locations", "locations.id", "machines.location_id")
    .selectAll("parts")
    .select(["part_revisions.config as own_config", "part_revisions.created_at as revision_time", "locations.id as location_id", "locations.name as location_name"])
    .where("parts.id", "=", id)
    .where("parts.deleted_at", "is", null),
);

/** The part (not deleted) with its current revision and location; undefined when there is none. */
export async function servedPart(db: Kysely<Tables>, partId: string): Promise<ServedPart | undefined> {
  const row = await servedPartQuery.first(db, partId);
  if (row === undefined) return undefined;
  const { own_config, revision_time, location_id, location_name, ...part } = row;
  return { part, ownConfig: own_config, revisionTime: Number(revision_time), location: { id: location_id, name: location_name } };
}

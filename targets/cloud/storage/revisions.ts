// A part's config is a sequence of revisions, never rewritten: an edit, a restore and a fragment's
// change each append one. An edit names the revision time it was based on (Viam's
// `last_known_update`); when another edit landed in between it is refused as a conflict instead of
// silently overwriting it.
import type { Kysely } from "kysely";
import { Code, SvcError } from "../../../core/index.js";
import type { PartRevisionsTable, Tables } from "./tables.js";

export interface SaveRevision {
  partId: string;
  /** The part's own config (fragments are merged when it is served), as a JSON object. */
  config: Record<string, unknown>;
  editedBy: string;
  now: number;
  /** When given, the edit was based on the revision made at this time (ms): anything newer is a conflict. */
  basedOn?: number;
}

/** Appends a revision and makes it the part's current one; answers its number. */
export function saveRevision(db: Kysely<Tables>, values: SaveRevision): Promise<number> {
  return db.transaction().execute(async (tx) => {
    const part = await tx.selectFrom("parts").select(["revision", "updated_at"]).where("id", "=", values.partId).executeTakeFirst();
    if (part === undefined) throw new SvcError(Code.NotFound, `no part ${values.partId}`);
    if (values.basedOn !== undefined && Number(part.updated_at) > values.basedOn) {
      throw new SvcError(
        Code.Aborted,
        `the part's config was changed at ${new Date(Number(part.updated_at)).toISOString()}, after the version this edit started from (${new Date(values.basedOn).toISOString()}); reload it and edit again`,
      );
    }
    const revision = part.revision + 1;
    // A revision is at least a millisecond after the last, so `updated_at` orders edits strictly.
    const at = Math.max(values.now, Number(part.updated_at) + 1);
    await tx.insertInto("part_revisions").values({ part_id: values.partId, revision, config: JSON.stringify(values.config), edited_by: values.editedBy, created_at: at }).execute();
    await tx.updateTable("parts").set({ revision, updated_at: at }).where("id", "=", values.partId).execute();
    return revision;
  });
}

/** The part's current revision. */
export async function currentRevision(db: Kysely<Tables>, partId: string): Promise<PartRevisionsTable> {
  const row = await db
    .selectFrom("parts")
    .innerJoin("part_revisions", (join) => join.onRef("part_revisions.part_id", "=", "parts.id").onRef("part_revisions.revision", "=", "parts.revision"))
    .selectAll("part_revisions")
    .where("parts.id", "=", partId)
    .executeTakeFirst();
  if (row === undefined) throw new SvcError(Code.NotFound, `no part ${partId}`);
  return row;
}

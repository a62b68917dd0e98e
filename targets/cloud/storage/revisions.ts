// A part's config is a sequence of revisions, never rewritten: an edit, a restore and a fragment's
// change each append one. An edit names the revision time it was based on (Viam's
// `last_known_update`); when another edit landed in between it is refused as a conflict instead of
// silently overwriting it.
import type { Kysely } from "kysely";
import { Code, SvcError } from "../../../core/index.js";
import type { PartRevisionsTable, Tables } from "./tables.js";
import { lockOrganization } from "./write-locks.js";

export interface SaveRevision {
  partId: string;
  /** The part's own config (fragments are merged when it is served), as a JSON object. */
  config: Record<string, unknown>;
  editedBy: string;
  now: number;
  /** When given, the edit was based on the revision made at this time (ms): anything newer is a conflict. */
  basedOn?: number;
  /** Runs in the saving transaction before anything is written; throws to refuse the edit. */
  check?: (tx: Kysely<Tables>) => Promise<void>;
}

/** A saved revision: what the machines using the part are told. */
export interface SavedRevision {
  partId: string;
  revision: number;
  /** When it was made (ms); also the part's new `updated_at`. */
  time: number;
}

/** Appends a revision and makes it the part's current one. */
export function saveRevision(db: Kysely<Tables>, values: SaveRevision): Promise<SavedRevision> {
  return db.transaction().execute(async (tx) => {
    await lockOrganization(tx, { partId: values.partId });
    const part = await tx.selectFrom("parts").select(["revision", "updated_at"]).where("id", "=", values.partId).executeTakeFirst();
    if (part === undefined) throw new SvcError(Code.NotFound, `no part ${values.partId}`);
    if (values.basedOn !== undefined && Number(part.updated_at) > values.basedOn) {
      throw new SvcError(
        Code.Aborted,
        `the part's config was changed at ${new Date(Number(part.updated_at)).toISOString()}, after the version this edit started from (${new Date(values.basedOn).toISOString()}); reload it and edit again`,
      );
    }
    // Checks that read other rows (the fragments a config uses) run here, so nothing changes them
    // between the check and the save.
    await values.check?.(tx);
    const revision = part.revision + 1;
    // A revision is at least a millisecond after the last, so `updated_at` orders edits strictly.
    const at = Math.max(values.now, Number(part.updated_at) + 1);
    await tx.insertInto("part_revisions").values({ part_id: values.partId, revision, config: JSON.stringify(values.config), edited_by: values.editedBy, created_at: at }).execute();
    await tx.updateTable("parts").set({ revision, updated_at: at }).where("id", "=", values.partId).execute();
    return { partId: values.partId, revision, time: at };
  });
}

/** The parts' rows a batch of revisions starts from. */
export interface BatchPart {
  partId: string;
  config: Record<string, unknown>;
}

const BATCH = 200;

/**
 * One new revision for each of many parts, each with its own config as it is, inside the caller's
 * transaction, which holds the parts' organisation (write-locks.ts) from before it read those
 * configs: what a fragment's edit saves for every part using it. Written a few hundred rows a
 * statement, so a fleet of a thousand parts takes a handful of statements, not thousands.
 * Answers each part's new revision and its time.
 */
export async function appendRevisions(tx: Kysely<Tables>, parts: readonly BatchPart[], editedBy: string, now: number): Promise<SavedRevision[]> {
  const saved: SavedRevision[] = [];
  for (let from = 0; from < parts.length; from += BATCH) {
    const chunk = parts.slice(from, from + BATCH);
    const ids = chunk.map((p) => p.partId);
    const rows = await tx.selectFrom("parts").select(["id", "revision", "updated_at"]).where("id", "in", ids).execute();
    const current = new Map(rows.map((r) => [r.id, r]));
    const values = chunk.map((p) => {
      const row = current.get(p.partId);
      if (row === undefined) throw new SvcError(Code.NotFound, `no part ${p.partId}`);
      const at = Math.max(now, Number(row.updated_at) + 1);
      saved.push({ partId: p.partId, revision: row.revision + 1, time: at });
      return { part_id: p.partId, revision: row.revision + 1, config: JSON.stringify(p.config), edited_by: editedBy, created_at: at };
    });
    await tx.insertInto("part_revisions").values(values).execute();
    await tx
      .updateTable("parts")
      .set((eb) => ({
        revision: eb("revision", "+", 1),
        updated_at: eb.case().when("updated_at", ">=", now).then(eb("updated_at", "+", 1)).else(now).end(),
      }))
      .where("id", "in", ids)
      .execute();
  }
  return saved;
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

/** The current revision of each of `partIds` that exists, as notices (read in batches of 500). */
export async function currentRevisions(db: Kysely<Tables>, partIds: readonly string[]): Promise<{ partId: string; revision: number; time: number }[]> {
  const notices: { partId: string; revision: number; time: number }[] = [];
  for (let at = 0; at < partIds.length; at += 500) {
    const rows = await db
      .selectFrom("parts")
      .innerJoin("part_revisions", (join) => join.onRef("part_revisions.part_id", "=", "parts.id").onRef("part_revisions.revision", "=", "parts.revision"))
      .select(["parts.id as partId", "part_revisions.revision as revision", "part_revisions.created_at as time"])
      .where("parts.id", "in", partIds.slice(at, at + 500))
      .execute();
    for (const row of rows) notices.push({ partId: row.partId, revision: Number(row.revision), time: Number(row.time) });
  }
  return notices;
}

// Fragments as rows: the newest config on the fragment, every revision beside it, never rewritten.
// What a change must check first (fleet/save-fragment.ts) happens before these are called, in the
// same transaction.
import type { Kysely } from "kysely";
import { Code, SvcError } from "../../../core/index.js";
import { preparedQuery } from "./prepared-query.js";
import type { FragmentRevisionsTable, FragmentsTable, Tables } from "./tables.js";

// Read for every part's config a machine fetches: built once.
const fragmentQuery = preparedQuery((db, id) => db.selectFrom("fragments").selectAll().where("id", "=", id));

export function findFragment(db: Kysely<Tables>, id: string): Promise<FragmentsTable | undefined> {
  return fragmentQuery.first(db, id);
}

export function listFragments(db: Kysely<Tables>, organizationId: string): Promise<FragmentsTable[]> {
  return db.selectFrom("fragments").selectAll().where("organization_id", "=", organizationId).orderBy("name").orderBy("id").execute();
}

export async function insertFragment(
  tx: Kysely<Tables>,
  values: { id: string; organizationId: string; name: string; config: Record<string, unknown>; editedBy: string; now: number },
): Promise<FragmentsTable> {
  const config = JSON.stringify(values.config);
  const row: FragmentsTable = { id: values.id, organization_id: values.organizationId, name: values.name, config, revision: 1, created_at: values.now, updated_at: values.now };
  await tx.insertInto("fragments").values(row).execute();
  await tx.insertInto("fragment_revisions").values({ fragment_id: values.id, revision: 1, config, edited_by: values.editedBy, created_at: values.now }).execute();
  return row;
}

/**
 * Appends a revision of a fragment (its config and name) and answers the row as it now is. With
 * `basedOn` (the `last_updated` the editor read), a newer change in between is a conflict.
 */
export async function appendFragmentRevision(
  tx: Kysely<Tables>,
  values: { id: string; name: string; config: Record<string, unknown>; editedBy: string; now: number; basedOn?: number },
): Promise<FragmentsTable> {
  const current = await findFragment(tx, values.id);
  if (current === undefined) throw new SvcError(Code.NotFound, `fragment ${values.id} not found`);
  if (values.basedOn !== undefined && Number(current.updated_at) > values.basedOn) {
    throw new SvcError(
      Code.Aborted,
      `fragment ${values.id} was changed at ${new Date(Number(current.updated_at)).toISOString()}, after the version this edit started from (${new Date(values.basedOn).toISOString()}); reload it and edit again`,
    );
  }
  const revision = current.revision + 1;
  const at = Math.max(values.now, Number(current.updated_at) + 1);
  const config = JSON.stringify(values.config);
  await tx.insertInto("fragment_revisions").values({ fragment_id: values.id, revision, config, edited_by: values.editedBy, created_at: at }).execute();
  await tx.updateTable("fragments").set({ name: values.name, config, revision, updated_at: at }).where("id", "=", values.id).execute();
  return { ...current, name: values.name, config, revision, updated_at: at };
}

/** Every revision of a fragment, newest first. */
export function fragmentRevisions(db: Kysely<Tables>, id: string): Promise<FragmentRevisionsTable[]> {
  return db.selectFrom("fragment_revisions").selectAll().where("fragment_id", "=", id).orderBy("revision", "desc").execute();
}

export function fragmentRevision(db: Kysely<Tables>, id: string, revision: number): Promise<FragmentRevisionsTable | undefined> {
  return db.selectFrom("fragment_revisions").selectAll().where("fragment_id", "=", id).where("revision", "=", revision).executeTakeFirst();
}

export async function removeFragment(tx: Kysely<Tables>, id: string): Promise<void> {
  await tx.deleteFrom("fragment_revisions").where("fragment_id", "=", id).execute();
  await tx.deleteFrom("fragments").where("id", "=", id).execute();
}

// The config a part runs: its own current revision with the fragments it uses merged in
// (merge-fragments.ts), as the device API serves it. Nothing of how it was put together is left
// in it (no `fragments`, no `fragment_mods`).
import type { Kysely } from "kysely";
import { Code, SvcError } from "../../../core/index.js";
import type { PartsTable, Tables } from "../storage/tables.js";
import { fragmentLookup } from "./fragment-lookup.js";
import { mergeFragments } from "./merge-fragments.js";

export interface EffectiveConfig {
  config: Record<string, unknown>;
  revision: number;
  /** When the revision was made (ms). */
  time: number;
}

export async function effectiveConfig(db: Kysely<Tables>, partId: string): Promise<EffectiveConfig> {
  const part = await db.selectFrom("parts").select(["id", "organization_id", "revision"]).where("id", "=", partId).executeTakeFirst();
  if (part === undefined) throw new SvcError(Code.NotFound, `no part ${partId}`);
  return effectiveConfigOf(db, part);
}

/** The same, for a part whose row the caller has read already (its current revision and organisation). */
export async function effectiveConfigOf(db: Kysely<Tables>, part: Pick<PartsTable, "id" | "organization_id" | "revision">): Promise<EffectiveConfig> {
  // Revisions are only ever appended, so the one the row names is there and never changes.
  const row = await db.selectFrom("part_revisions").select(["config", "created_at"]).where("part_id", "=", part.id).where("revision", "=", part.revision).executeTakeFirstOrThrow();
  return effectiveConfigFrom(db, part, row.config, Number(row.created_at));
}

/**
 * The same, for a part whose current revision (its own config as stored, and its time) the caller
 * has read too. `seen`, when given, is told each fragment merged and its revision.
 */
export async function effectiveConfigFrom(
  db: Kysely<Tables>,
  part: Pick<PartsTable, "id" | "organization_id" | "revision">,
  ownConfig: string,
  time: number,
  seen?: Map<string, number>,
): Promise<EffectiveConfig> {
  const own = JSON.parse(ownConfig) as Record<string, unknown>;
  try {
    const { config } = await mergeFragments({ label: "the part", config: own }, fragmentLookup(db, part.organization_id, undefined, seen));
    return { config, revision: part.revision, time };
  } catch (thrown) {
    // Every save checks the merge, so this is a store changed by other means: the machine keeps
    // what it runs and the reason is said, instead of a config with a silent gap.
    if (!(thrown instanceof SvcError)) throw thrown;
    throw new SvcError(Code.FailedPrecondition, `part ${part.id}: revision ${part.revision} cannot be put together with its fragments: ${thrown.message}`, thrown);
  }
}

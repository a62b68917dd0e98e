// The check a part's config passes before it is saved: the fragments it lists exist in its
// organisation, nest without a cycle, its fragment_mods reach what those fragments provide, no
// resource name or setting comes from two places, and what comes out parses without errors.
// Answers the merged config a machine would run. Run it inside the saving transaction
// (saveRevision's `check`), so no fragment changes between the check and the save.
import type { Kysely } from "kysely";
import type { Tables } from "../storage/tables.js";
import { refuseConfigErrors } from "./config-errors.js";
import { fragmentLookup } from "./fragment-lookup.js";
import { mergeFragments, type Merged } from "./merge-fragments.js";

export async function checkPartConfig(db: Kysely<Tables>, organizationId: string, config: Record<string, unknown>): Promise<Merged> {
  const merged = await mergeFragments({ label: "the part", config }, fragmentLookup(db, organizationId));
  if (merged.fragmentIds.length > 0) refuseConfigErrors("the part's config", merged.config);
  return merged;
}

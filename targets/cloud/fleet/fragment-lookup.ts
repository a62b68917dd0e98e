// Fragments as the merge reads them: those of one organisation only (another organisation's
// fragment is not found, whatever its id), each read once per merge, and with the edit being
// checked put in place of what is stored.
import type { Kysely } from "kysely";
import { findFragment } from "../storage/fragments-store.js";
import type { Tables } from "../storage/tables.js";
import type { FragmentLookup, FragmentSource } from "./merge-fragments.js";

/** `seen`, when given, is told each fragment read and its revision. */
export function fragmentLookup(db: Kysely<Tables>, organizationId: string, replaced?: FragmentSource, seen?: Map<string, number>): FragmentLookup {
  const read = new Map<string, Promise<FragmentSource | undefined>>();
  return (id) => {
    if (replaced !== undefined && id === replaced.id) return Promise.resolve(replaced);
    let found = read.get(id);
    if (found === undefined) {
      found = findFragment(db, id).then((row) => {
        if (row === undefined || row.organization_id !== organizationId) return undefined;
        seen?.set(row.id, row.revision);
        return { id: row.id, name: row.name, config: JSON.parse(row.config) as Record<string, unknown> };
      });
      read.set(id, found);
    }
    return found;
  };
}

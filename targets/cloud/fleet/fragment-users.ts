// Who uses a fragment: the parts of its organisation whose current config reaches it (listed
// directly, or nested in a fragment they list), and the fragments that list it. Read from the
// configs themselves, so it is always what the parts say now.
import type { Kysely } from "kysely";
import { listFragments } from "../storage/fragments-store.js";
import type { Tables } from "../storage/tables.js";
import { readFragmentIds, type FragmentLookup } from "./merge-fragments.js";

export interface PartUsing {
  partId: string;
  name: string;
  machineId: string;
  /** The part's own current config. */
  config: Record<string, unknown>;
}

export async function partsUsing(db: Kysely<Tables>, organizationId: string, fragmentId: string, lookup: FragmentLookup): Promise<PartUsing[]> {
  const users: PartUsing[] = [];
  for (const part of await currentParts(db, organizationId)) {
    if ((await reached(listedIn(part.config), lookup)).has(fragmentId)) users.push({ partId: part.id, name: part.name, machineId: part.machineId, config: part.config });
  }
  return users;
}

export interface FragmentUsage {
  parts: number;
  machines: number;
}

/** How many parts and machines the users of one fragment are. */
export function usageOf(users: readonly PartUsing[]): FragmentUsage {
  return { parts: users.length, machines: new Set(users.map((u) => u.machineId)).size };
}

/** For each fragment of the organisation some part uses, how many parts and machines use it. */
export async function fragmentUsage(db: Kysely<Tables>, organizationId: string, lookup: FragmentLookup): Promise<Map<string, FragmentUsage>> {
  const parts = new Map<string, number>();
  const machines = new Map<string, Set<string>>();
  for (const part of await currentParts(db, organizationId)) {
    for (const id of await reached(listedIn(part.config), lookup)) {
      parts.set(id, (parts.get(id) ?? 0) + 1);
      machines.set(id, (machines.get(id) ?? new Set()).add(part.machineId));
    }
  }
  return new Map([...parts].map(([id, count]) => [id, { parts: count, machines: machines.get(id)!.size }]));
}

async function currentParts(db: Kysely<Tables>, organizationId: string) {
  const rows = await db
    .selectFrom("parts")
    .innerJoin("part_revisions", (join) => join.onRef("part_revisions.part_id", "=", "parts.id").onRef("part_revisions.revision", "=", "parts.revision"))
    .select(["parts.id", "parts.name", "parts.machine_id", "part_revisions.config"])
    .where("parts.organization_id", "=", organizationId)
    .where("parts.deleted_at", "is", null)
    .orderBy("parts.id")
    .execute();
  return rows.map((row) => ({ id: row.id, name: row.name, machineId: row.machine_id, config: JSON.parse(row.config) as Record<string, unknown> }));
}

/** The fragments of the organisation that list `fragmentId` in their own `fragments`. */
export async function fragmentsListing(db: Kysely<Tables>, organizationId: string, fragmentId: string): Promise<{ id: string; name: string }[]> {
  const all = await listFragments(db, organizationId);
  return all.filter((f) => f.id !== fragmentId && listedIn(JSON.parse(f.config) as Record<string, unknown>).includes(fragmentId)).map((f) => ({ id: f.id, name: f.name }));
}

/** The fragments a config lists itself. A config whose list is malformed uses nothing yet: its own save is what refuses it. */
export function listedIn(config: Record<string, unknown>): string[] {
  try {
    return readFragmentIds(config.fragments, "");
  } catch {
    return [];
  }
}

/** Every fragment `ids` reach, nested ones too; each read once, a cycle followed no further. */
async function reached(ids: readonly string[], lookup: FragmentLookup): Promise<Set<string>> {
  const seen = new Set<string>();
  const walk = async (list: readonly string[]) => {
    for (const id of list) {
      if (seen.has(id)) continue;
      seen.add(id);
      const fragment = await lookup(id);
      if (fragment !== undefined) await walk(listedIn(fragment.config));
    }
  };
  await walk(ids);
  return seen;
}

// Machines and their parts as people see them: only what is not deleted. Deleting keeps the rows
// (a machine's history and logs still name their part) but revokes the part keys at once, so the
// machine is cut off the moment it is deleted; its name is free for a new machine.
import type { Kysely } from "kysely";
import { Code, SvcError } from "../../../core/index.js";
import { createApiKey, type NewKey } from "./api-keys.js";
import { newId } from "./secrets.js";
import type { MachinesTable, PartsTable, Tables } from "./tables.js";
import { lockOrganization } from "./write-locks.js";

export function findMachine(db: Kysely<Tables>, machineId: string): Promise<MachinesTable | undefined> {
  return db.selectFrom("machines").selectAll().where("id", "=", machineId).where("deleted_at", "is", null).executeTakeFirst();
}

export function machinesIn(db: Kysely<Tables>, locationId: string): Promise<MachinesTable[]> {
  return db.selectFrom("machines").selectAll().where("location_id", "=", locationId).where("deleted_at", "is", null).orderBy("name").execute();
}

export function findPart(db: Kysely<Tables>, partId: string): Promise<PartsTable | undefined> {
  return db.selectFrom("parts").selectAll().where("id", "=", partId).where("deleted_at", "is", null).executeTakeFirst();
}

/** The machine's parts, its main part first. */
export function partsOf(db: Kysely<Tables>, machineIds: readonly string[]): Promise<PartsTable[]> {
  if (machineIds.length === 0) return Promise.resolve([]);
  return db.selectFrom("parts").selectAll().where("machine_id", "in", machineIds).where("deleted_at", "is", null).orderBy("main_part", "desc").orderBy("name").execute();
}

/** Throws AlreadyExists when `locationId` has a machine named `name` (other than `except`). */
export async function checkMachineNameFree(db: Kysely<Tables>, locationId: string, name: string, except?: string): Promise<void> {
  let query = db.selectFrom("machines").select("id").where("location_id", "=", locationId).where("name", "=", name).where("deleted_at", "is", null);
  if (except !== undefined) query = query.where("id", "!=", except);
  if ((await query.executeTakeFirst()) !== undefined) throw new SvcError(Code.AlreadyExists, `a machine named "${name}" already exists in location ${locationId}`);
}

/** Throws AlreadyExists when the machine has a part named `name` (other than `except`). */
export async function checkPartNameFree(db: Kysely<Tables>, machineId: string, name: string, except?: string): Promise<void> {
  let query = db.selectFrom("parts").select("id").where("machine_id", "=", machineId).where("name", "=", name).where("deleted_at", "is", null);
  if (except !== undefined) query = query.where("id", "!=", except);
  if ((await query.executeTakeFirst()) !== undefined) throw new SvcError(Code.AlreadyExists, `machine ${machineId} already has a part named "${name}"`);
}

/** Renames or moves a machine; AlreadyExists when its new location has another of that name (checked in the same transaction). */
export function updateMachine(db: Kysely<Tables>, machineId: string, values: { name: string; locationId: string }): Promise<void> {
  return db.transaction().execute(async (tx) => {
    await lockOrganization(tx, { machineId });
    await checkMachineNameFree(tx, values.locationId, values.name, machineId);
    await tx.updateTable("machines").set({ name: values.name, location_id: values.locationId }).where("id", "=", machineId).execute();
  });
}

/**
 * A part of an existing machine (not its main part), revision 1 of an empty config and the part's
 * key; AlreadyExists when the machine has a part of that name (checked in the same transaction).
 */
export function addPart(db: Kysely<Tables>, values: { machineId: string; organizationId: string; name: string; editedBy: string; now: number }): Promise<{ partId: string; partKey: NewKey }> {
  return db.transaction().execute(async (tx) => {
    await lockOrganization(tx, { machineId: values.machineId });
    await checkPartNameFree(tx, values.machineId, values.name);
    const partId = newId();
    const { now } = values;
    await tx
      .insertInto("parts")
      .values({ id: partId, machine_id: values.machineId, organization_id: values.organizationId, name: values.name, main_part: 0, revision: 1, restart_requested: 0, last_access: null, reported_versions: null, created_at: now, updated_at: now })
      .execute();
    await tx.insertInto("part_revisions").values({ part_id: partId, revision: 1, config: "{}", edited_by: values.editedBy, created_at: now }).execute();
    const partKey = await createApiKey(tx, { organizationId: values.organizationId, name: values.name, scope: "part", scopeId: partId, now });
    return { partId, partKey };
  });
}

/** Renames a part; AlreadyExists when its machine has another of that name (checked in the same transaction). */
export function renamePart(db: Kysely<Tables>, partId: string, name: string): Promise<void> {
  return db.transaction().execute(async (tx) => {
    await lockOrganization(tx, { partId });
    const { machine_id } = await tx.selectFrom("parts").select("machine_id").where("id", "=", partId).executeTakeFirstOrThrow();
    await checkPartNameFree(tx, machine_id, name, partId);
    await tx.updateTable("parts").set({ name }).where("id", "=", partId).execute();
  });
}

/** Deletes the parts (keeping their rows) and revokes their keys, in one transaction. */
async function deleteParts(db: Kysely<Tables>, partIds: readonly string[], now: number): Promise<void> {
  if (partIds.length === 0) return;
  await db.updateTable("parts").set({ deleted_at: now }).where("id", "in", partIds).where("deleted_at", "is", null).execute();
  await db.updateTable("api_keys").set({ revoked_at: now }).where("scope", "=", "part").where("scope_id", "in", partIds).where("revoked_at", "is", null).execute();
}

export function deletePart(db: Kysely<Tables>, partId: string, now: number): Promise<void> {
  return db.transaction().execute(async (tx) => {
    await lockOrganization(tx, { partId });
    const part = await findPart(tx, partId);
    if (part === undefined) throw new SvcError(Code.NotFound, `part ${partId} not found`);
    if (part.main_part === 1) throw new SvcError(Code.FailedPrecondition, `part ${partId} is its machine's main part: delete the machine instead`);
    await deleteParts(tx, [partId], now);
  });
}

export function deleteMachine(db: Kysely<Tables>, machineId: string, now: number): Promise<void> {
  return db.transaction().execute(async (tx) => {
    await lockOrganization(tx, { machineId });
    const parts = await partsOf(tx, [machineId]);
    await deleteParts(tx, parts.map((p) => p.id), now);
    await tx.updateTable("machines").set({ deleted_at: now }).where("id", "=", machineId).execute();
  });
}

export async function markForRestart(db: Kysely<Tables>, partId: string): Promise<void> {
  await db.updateTable("parts").set({ restart_requested: 1 }).where("id", "=", partId).execute();
}

/** Each part's current config (its own, before fragments are merged), in one query. */
export async function currentConfigs(db: Kysely<Tables>, partIds: readonly string[]): Promise<Map<string, Record<string, unknown>>> {
  const found = new Map<string, Record<string, unknown>>();
  if (partIds.length === 0) return found;
  const rows = await db
    .selectFrom("parts")
    .innerJoin("part_revisions", (join) => join.onRef("part_revisions.part_id", "=", "parts.id").onRef("part_revisions.revision", "=", "parts.revision"))
    .select(["parts.id as id", "part_revisions.config as config"])
    .where("parts.id", "in", partIds)
    .execute();
  for (const row of rows) found.set(row.id, JSON.parse(row.config) as Record<string, unknown>);
  return found;
}

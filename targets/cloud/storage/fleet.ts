// The shape of a fleet: people, organisations, their locations, machines and parts. A machine is
// made with its main part, the part's first (empty) config revision and the part's API key in
// one transaction, so a machine never exists without credentials.
import type { Kysely } from "kysely";
import { newId } from "./secrets.js";
import { createApiKey, type NewKey } from "./api-keys.js";
import { checkMachineNameFree } from "./machines-store.js";
import type { Role, Tables } from "./tables.js";
import { lockOrganization } from "./write-locks.js";

export async function createUser(db: Kysely<Tables>, values: { email: string; passwordHash: string; now: number }): Promise<string> {
  const id = newId();
  await db.insertInto("users").values({ id, email: values.email, password_hash: values.passwordHash, created_at: values.now }).execute();
  return id;
}

export async function createOrganization(db: Kysely<Tables>, values: { name: string; now: number }): Promise<string> {
  const id = newId();
  await db.insertInto("organizations").values({ id, name: values.name, created_at: values.now }).execute();
  return id;
}

export async function addMember(db: Kysely<Tables>, values: { organizationId: string; userId: string; role: Role; now: number }): Promise<void> {
  await db
    .insertInto("memberships")
    .values({ organization_id: values.organizationId, user_id: values.userId, role: values.role, created_at: values.now })
    .onConflict((c) => c.columns(["organization_id", "user_id"]).doUpdateSet({ role: values.role }))
    .execute();
}

export async function createLocation(db: Kysely<Tables>, values: { organizationId: string; name: string; now: number }): Promise<string> {
  const id = newId();
  await db.insertInto("locations").values({ id, organization_id: values.organizationId, name: values.name, created_at: values.now }).execute();
  return id;
}

export interface NewMachine {
  machineId: string;
  partId: string;
  partKey: NewKey;
}

export interface MachineValues {
  locationId: string;
  organizationId: string;
  name: string;
  editedBy: string;
  now: number;
  /** The main part's first config; empty when not given. */
  config?: Record<string, unknown>;
  /** Runs in the making transaction before anything is written; throws to refuse the machine. */
  check?: (tx: Kysely<Tables>) => Promise<void>;
}

/**
 * A machine in `locationId` with its main part, revision 1 of its config (empty unless given) and
 * the part's key; AlreadyExists when the location has a machine of that name, checked in the same
 * transaction, so two callers making the same name at once cannot both succeed.
 */
export function createMachine(db: Kysely<Tables>, values: MachineValues): Promise<NewMachine> {
  return db.transaction().execute(async (tx) => {
    await lockOrganization(tx, { organizationId: values.organizationId });
    await values.check?.(tx);
    await checkMachineNameFree(tx, values.locationId, values.name);
    const machineId = newId();
    const partId = newId();
    const { now } = values;
    await tx.insertInto("machines").values({ id: machineId, organization_id: values.organizationId, location_id: values.locationId, name: values.name, created_at: now }).execute();
    await tx
      .insertInto("parts")
      .values({ id: partId, machine_id: machineId, organization_id: values.organizationId, name: `${values.name}-main`, main_part: 1, revision: 1, restart_requested: 0, last_access: null, reported_versions: null, created_at: now, updated_at: now })
      .execute();
    await tx.insertInto("part_revisions").values({ part_id: partId, revision: 1, config: JSON.stringify(values.config ?? {}), edited_by: values.editedBy, created_at: now }).execute();
    const partKey = await createApiKey(tx, { organizationId: values.organizationId, name: `${values.name}-main`, scope: "part", scopeId: partId, now });
    return { machineId, partId, partKey };
  });
}

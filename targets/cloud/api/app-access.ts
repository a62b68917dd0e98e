// Locations and machines looked up for a call, with the caller's role checked in their
// organisation: what does not exist and what lies in another organisation are both NotFound.
import type { Kysely } from "kysely";
import { requireRole } from "../auth/access.js";
import type { Principal } from "../auth/principal.js";
import { findMachine } from "../storage/machines-store.js";
import type { LocationsTable, MachinesTable, Role, Tables } from "../storage/tables.js";
import { requireId } from "./app-names.js";

export async function requireLocationRole(db: Kysely<Tables>, principal: Principal, locationId: string, needed: Role): Promise<LocationsTable> {
  const location = await db.selectFrom("locations").selectAll().where("id", "=", requireId("location_id", locationId)).executeTakeFirst();
  await requireRole(db, principal, location?.organization_id, needed, `location ${locationId}`);
  return location!;
}

export async function requireMachineRole(db: Kysely<Tables>, principal: Principal, machineId: string, needed: Role): Promise<MachinesTable> {
  const machine = await findMachine(db, requireId("robot id", machineId));
  await requireRole(db, principal, machine?.organization_id, needed, `machine ${machineId}`);
  return machine!;
}

// What svc-cloud tells a part about itself (RobotConfig's `cloud`): its ids, its organisation,
// location and machine, and the names it is reached by. Never a secret.
import type { Kysely } from "kysely";
import type { PartsTable, Tables } from "../storage/tables.js";
import { partNames } from "./part-names.js";
import type { PartCloud } from "./robot-config.js";

export async function partCloudOf(db: Kysely<Tables>, part: PartsTable, publicUrl: string): Promise<PartCloud> {
  const where = await db
    .selectFrom("machines")
    .innerJoin("locations", "locations.id", "machines.location_id")
    .select(["locations.id as location_id", "locations.name as location_name"])
    .where("machines.id", "=", part.machine_id)
    .executeTakeFirstOrThrow();
  return partCloudAt(part, { id: where.location_id, name: where.location_name }, publicUrl);
}

/** The same, for a part whose location the caller has read already. */
export function partCloudAt(part: Pick<PartsTable, "id" | "name" | "organization_id" | "machine_id">, location: { id: string; name: string }, publicUrl: string): PartCloud {
  const names = partNames({ partName: part.name, locationName: location.name, locationId: location.id, publicUrl });
  return { id: part.id, ...names, location_id: location.id, primary_org_id: part.organization_id, machine_id: part.machine_id };
}

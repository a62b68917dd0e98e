// The least a store-level test starts from: an organisation with a location, made through the
// store's own functions (no certificate authority, no keys), at a fixed time.
import type { Kysely } from "kysely";
import { createLocation, createMachine, createOrganization } from "../../targets/cloud/storage/fleet.js";
import type { Tables } from "../../targets/cloud/storage/tables.js";

export const SEED_TIME = Date.UTC(2026, 0, 1);

export interface Seeded {
  organizationId: string;
  locationId: string;
  /** A machine in the location, with its main part and that part's key. */
  machine(name: string, config?: Record<string, unknown>): ReturnType<typeof createMachine>;
}

export async function seedOrganization(db: Kysely<Tables>, name = "acme"): Promise<Seeded> {
  const organizationId = await createOrganization(db, { name, now: SEED_TIME });
  const locationId = await createLocation(db, { organizationId, name: "main", now: SEED_TIME });
  return {
    organizationId,
    locationId,
    machine: (machineName, config) => createMachine(db, { organizationId, locationId, name: machineName, editedBy: "test", now: SEED_TIME, config }),
  };
}

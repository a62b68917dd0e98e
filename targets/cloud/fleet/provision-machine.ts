// A machine made with a provisioning key: in the key's location, named as the caller asks, its
// main part's first config listing the key's fragment and nothing else. The config is checked as
// any edit is (the fragment exists in the organisation and what it brings parses), and the key is
// read again, all in the transaction that makes the machine: a key revoked or a fragment removed
// meanwhile makes nothing.
import type { Kysely } from "kysely";
import { Code, SvcError } from "../../../core/index.js";
import { keyName } from "../auth/principal.js";
import { findApiKey } from "../storage/api-keys.js";
import { createMachine, type NewMachine } from "../storage/fleet.js";
import type { ApiKeysTable, Tables } from "../storage/tables.js";
import { checkPartConfig } from "./check-part-config.js";

export async function provisionMachine(db: Kysely<Tables>, key: ApiKeysTable, name: string, now: number): Promise<NewMachine> {
  if (key.scope !== "provisioning" || key.fragment_id === null) throw new SvcError(Code.PermissionDenied, `key ${key.id} is not a provisioning key`);
  const config = { fragments: [key.fragment_id] };
  const check = async (tx: Kysely<Tables>) => {
    const current = await findApiKey(tx, key.id);
    if (current === undefined || current.revoked_at !== null) throw new SvcError(Code.Unauthenticated, `provisioning key ${key.id} was revoked`);
    const location = await tx.selectFrom("locations").select("organization_id").where("id", "=", key.scope_id).executeTakeFirst();
    if (location?.organization_id !== key.organization_id) throw new SvcError(Code.FailedPrecondition, `the key's location ${key.scope_id} no longer exists: make a new key`);
    await checkPartConfig(tx, key.organization_id, config);
  };
  return createMachine(db, { locationId: key.scope_id, organizationId: key.organization_id, name, editedBy: keyName(key.id), now, config, check });
}

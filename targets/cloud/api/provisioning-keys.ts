// Making a provisioning key (CreateKey with two `provisioning` authorizations): an owner of the
// location's organisation names the location machines are made in and a fragment of the same
// organisation to attach to each. Both must exist; a location the caller cannot see is not found,
// and so is a fragment of another organisation, whatever its id.
import { Code, SvcError } from "../../../core/index.js";
import type { Principal } from "../auth/principal.js";
import type { CloudContext } from "../server/cloud-context.js";
import { createApiKey, type NewKey } from "../storage/api-keys.js";
import { findFragment } from "../storage/fragments-store.js";
import { requireLocationRole } from "./app-access.js";
import type { ProvisioningGrant } from "./app-authorizations.js";

export async function createProvisioningKey(cloud: CloudContext, principal: Principal, grant: ProvisioningGrant, name: string): Promise<NewKey> {
  const { db } = cloud.store;
  const location = await requireLocationRole(db, principal, grant.locationId, "owner");
  const organizationId = location.organization_id;
  if (grant.organizationId !== "" && grant.organizationId !== organizationId) {
    throw new SvcError(Code.InvalidArgument, `authorizations: location ${location.id} is not in organisation ${grant.organizationId}`);
  }
  const fragment = await findFragment(db, grant.fragmentId);
  if (fragment === undefined || fragment.organization_id !== organizationId) {
    throw new SvcError(Code.NotFound, `fragment ${grant.fragmentId} not found in the organisation of location ${location.id}`);
  }
  return createApiKey(db, { organizationId, name, scope: "provisioning", scopeId: location.id, fragmentId: fragment.id, now: cloud.clock.now() });
}

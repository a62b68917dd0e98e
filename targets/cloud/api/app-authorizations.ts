// Viam's authorizations, as far as svc-cloud has them: one role over a whole organisation,
// `organization_owner`, `organization_operator` or `organization_viewer` (authorization type
// "role", resource type "organization"), and for a key, `robot_part_device` over one part: the
// part's own key, what its machine signs in with. A provisioning key is svc-cloud's own
// `provisioning` role, granted twice: over one location (where it makes machines) and over one
// fragment (what each machine it makes is given). Roles over single locations or machines do not
// exist here and are refused in words rather than widened or narrowed.
import type { MessageInitShape } from "@bufbuild/protobuf";
import { Code, SvcError } from "../../../core/index.js";
import type { AuthorizationSchema } from "../../../proto/gen/app/v1/app_pb.js";
import type { Role } from "../storage/tables.js";

export interface AuthorizationLike {
  authorizationType: string;
  authorizationId: string;
  resourceType: string;
  resourceId: string;
  organizationId: string;
}

const ROLES: readonly Role[] = ["owner", "operator", "viewer"];
/** The role of a part's own key, as Viam names it. */
export const PART_DEVICE_ROLE = "robot_part_device";

/** The role of a provisioning key, over its location and its fragment. */
export const PROVISIONING_ROLE = "provisioning";

export interface ProvisioningGrant {
  locationId: string;
  fragmentId: string;
  /** The organisation the authorizations name, "" when they name none. */
  organizationId: string;
}

/** The location and fragment of a provisioning key's two `provisioning` authorizations; undefined when none is `provisioning`. */
export function provisioningOfAuthorizations(authorizations: readonly AuthorizationLike[], where: string): ProvisioningGrant | undefined {
  if (!authorizations.some((a) => a.authorizationId === PROVISIONING_ROLE)) return undefined;
  const shape = `a provisioning key takes two "${PROVISIONING_ROLE}" authorizations: one over a location, one over a fragment`;
  if (authorizations.length !== 2) throw new SvcError(Code.InvalidArgument, `${where}: ${shape} (found ${authorizations.length} authorizations)`);
  const over = (resourceType: string) => {
    const index = authorizations.findIndex((a) => a.resourceType === resourceType);
    const a = authorizations[index];
    if (a === undefined) throw new SvcError(Code.InvalidArgument, `${where}: ${shape} (none is over a ${resourceType})`);
    const at = `${where}[${index}]`;
    if (a.authorizationId !== PROVISIONING_ROLE) throw new SvcError(Code.InvalidArgument, `${at}.authorization_id: must be "${PROVISIONING_ROLE}" (found "${a.authorizationId}")`);
    if (a.authorizationType !== "role") throw new SvcError(Code.InvalidArgument, `${at}.authorization_type: must be "role" (found "${a.authorizationType}")`);
    if (a.resourceId === "") throw new SvcError(Code.InvalidArgument, `${at}.resource_id: the ${resourceType}'s id is needed`);
    return a;
  };
  const location = over("location");
  const fragment = over("fragment");
  const organizations = new Set([location.organizationId, fragment.organizationId].filter((id) => id !== ""));
  if (organizations.size > 1) throw new SvcError(Code.InvalidArgument, `${where}: the two authorizations name different organisations`);
  return { locationId: location.resourceId, fragmentId: fragment.resourceId, organizationId: [...organizations][0] ?? "" };
}

/** The part a single `robot_part_device` authorization names; undefined when `authorizations` are anything else. */
export function partOfAuthorizations(authorizations: readonly AuthorizationLike[], where: string): string | undefined {
  if (authorizations.length !== 1 || authorizations[0]!.authorizationId !== PART_DEVICE_ROLE) return undefined;
  const a = authorizations[0]!;
  const at = `${where}[0]`;
  if (a.authorizationType !== "role") throw new SvcError(Code.InvalidArgument, `${at}.authorization_type: must be "role" (found "${a.authorizationType}")`);
  if (a.resourceType !== "robot_part") throw new SvcError(Code.InvalidArgument, `${at}.resource_type: ${PART_DEVICE_ROLE} is granted over one robot_part (found "${a.resourceType}")`);
  if (a.resourceId === "") throw new SvcError(Code.InvalidArgument, `${at}.resource_id: the part's id is needed`);
  return a.resourceId;
}

/** The one role and organisation `authorizations` grant; InvalidArgument when they are anything else. */
export function roleOfAuthorizations(authorizations: readonly AuthorizationLike[], where: string): { role: Role; organizationId: string } {
  if (authorizations.length !== 1) throw new SvcError(Code.InvalidArgument, `${where}: exactly one authorization is needed (found ${authorizations.length})`);
  const a = authorizations[0]!;
  const at = `${where}[0]`;
  if (a.authorizationType !== "role") throw new SvcError(Code.InvalidArgument, `${at}.authorization_type: must be "role" (found "${a.authorizationType}")`);
  const role = ROLES.find((r) => a.authorizationId === `organization_${r}`);
  if (role === undefined) throw new SvcError(Code.InvalidArgument, `${at}.authorization_id: must be one of ${ROLES.map((r) => `organization_${r}`).join(", ")} (found "${a.authorizationId}")`);
  if (a.resourceType !== "organization") throw new SvcError(Code.InvalidArgument, `${at}.resource_type: svc-cloud grants roles over a whole organisation only (found "${a.resourceType}")`);
  const organizationId = a.resourceId || a.organizationId;
  if (organizationId === "") throw new SvcError(Code.InvalidArgument, `${at}.resource_id: the organisation's id is needed`);
  if (a.organizationId !== "" && a.organizationId !== organizationId) throw new SvcError(Code.InvalidArgument, `${at}: resource_id and organization_id name different organisations`);
  return { role, organizationId };
}

export function authorizationOf(role: Role, organizationId: string, identity: { id: string; type: string }): MessageInitShape<typeof AuthorizationSchema> {
  return {
    authorizationType: "role",
    authorizationId: `organization_${role}`,
    resourceType: "organization",
    resourceId: organizationId,
    organizationId,
    identityId: identity.id,
    identityType: identity.type,
  };
}

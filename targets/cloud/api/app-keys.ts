// API keys, for an organisation's owners only. An organisation key acts as the organisation's
// owner (svc-cloud's only kind of organisation key); a part key is what a machine signs in with,
// and CreateKey makes another for a part (a machine made with NewRobot, or one whose key was
// lost); a provisioning key only makes machines in one location with one fragment attached
// (provisioning-keys.ts, provision-route.ts). A key's secret is answered once, by CreateKey, and
// kept only as a hash, so lists carry no secrets. ListKeys lists the organisation and
// provisioning keys. DeleteKey revokes: the key's tokens are refused from the next call on, and
// the row stays so the key's id still explains history.
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { Code, SvcError } from "../../../core/index.js";
import type { APIKeyWithAuthorizationsSchema, AppService, AuthorizationDetailsSchema } from "../../../proto/gen/app/v1/app_pb.js";
import { requirePartRole, requireRole } from "../auth/access.js";
import { callerOf } from "../server/caller.js";
import type { CloudContext } from "../server/cloud-context.js";
import { createApiKey, findApiKey, listApiKeys, revokeApiKey } from "../storage/api-keys.js";
import { partsOf } from "../storage/machines-store.js";
import type { ApiKeysTable } from "../storage/tables.js";
import { requireMachineRole } from "./app-access.js";
import { PART_DEVICE_ROLE, PROVISIONING_ROLE, partOfAuthorizations, provisioningOfAuthorizations, roleOfAuthorizations } from "./app-authorizations.js";
import { requireId } from "./app-names.js";
import { createProvisioningKey } from "./provisioning-keys.js";

const MAX_KEY_NAME = 100;

function authorizationsOf(key: ApiKeysTable): MessageInitShape<typeof AuthorizationDetailsSchema>[] {
  const detail = (authorizationId: string, resourceType: string, resourceId: string) => ({ authorizationType: "role", authorizationId, resourceType, resourceId, orgId: key.organization_id });
  if (key.scope === "part") return [detail(PART_DEVICE_ROLE, "robot_part", key.scope_id)];
  if (key.scope === "provisioning") return [detail(PROVISIONING_ROLE, "location", key.scope_id), detail(PROVISIONING_ROLE, "fragment", key.fragment_id ?? "")];
  return [detail("organization_owner", "organization", key.scope_id)];
}

function keyMessage(key: ApiKeysTable): MessageInitShape<typeof APIKeyWithAuthorizationsSchema> {
  return {
    apiKey: { id: key.id, key: "", name: key.name, createdOn: timestampFromMs(Number(key.created_at)) },
    authorizations: authorizationsOf(key),
  };
}

export function appKeys(cloud: CloudContext): Partial<ServiceImpl<typeof AppService>> {
  const { db } = cloud.store;
  return {
    async createKey(request, context) {
      const name = request.name === "" ? "api key" : request.name;
      if (name.length > MAX_KEY_NAME) throw new SvcError(Code.InvalidArgument, `name: at most ${MAX_KEY_NAME} characters`);
      const partId = partOfAuthorizations(request.authorizations, "authorizations");
      if (partId !== undefined) {
        const part = await requirePartRole(db, callerOf(context), partId, "owner");
        const made = await createApiKey(db, { organizationId: part.organization_id, name, scope: "part", scopeId: part.id, now: cloud.clock.now() });
        return { id: made.id, key: made.key };
      }
      const grant = provisioningOfAuthorizations(request.authorizations, "authorizations");
      if (grant !== undefined) return createProvisioningKey(cloud, callerOf(context), grant, name);
      const { role, organizationId } = roleOfAuthorizations(request.authorizations, "authorizations");
      await requireRole(db, callerOf(context), organizationId, "owner", `organisation ${organizationId}`);
      if (role !== "owner") throw new SvcError(Code.InvalidArgument, "authorizations[0].authorization_id: svc-cloud's organisation keys act as the organisation's owner: use organization_owner");
      const made = await createApiKey(db, { organizationId, name, scope: "organization", scopeId: organizationId, now: cloud.clock.now() });
      return { id: made.id, key: made.key };
    },

    async listKeys(request, context) {
      const organizationId = requireId("org_id", request.orgId);
      await requireRole(db, callerOf(context), organizationId, "owner", `organisation ${organizationId}`);
      const keys = await listApiKeys(db, organizationId);
      return { apiKeys: keys.filter((k) => k.scope !== "part").map(keyMessage) };
    },

    async deleteKey(request, context) {
      const id = requireId("id", request.id);
      const key = await findApiKey(db, id);
      await requireRole(db, callerOf(context), key?.organization_id, "owner", `API key ${id}`);
      if (!(await revokeApiKey(db, id, cloud.clock.now()))) throw new SvcError(Code.NotFound, `API key ${id} not found (or already revoked)`);
      return {};
    },

    async getRobotAPIKeys(request, context) {
      const machine = await requireMachineRole(db, callerOf(context), request.robotId, "owner");
      const partIds = new Set((await partsOf(db, [machine.id])).map((p) => p.id));
      const keys = await listApiKeys(db, machine.organization_id);
      return { apiKeys: keys.filter((k) => k.scope === "part" && partIds.has(k.scope_id)).map(keyMessage) };
    },
  };
}

// A machine's credentials file made anew, for an operator of its part: a new key of the part's
// own (svc-cloud keeps only its hash, so a file once handed out cannot be shown again), in the
// shape `svc-cloud machine create` prints and svc-server and svc-agent read. What a person
// downloads from the web app to install a machine.
import type { ServiceImpl } from "@connectrpc/connect";
import type { CloudService } from "../../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { requirePartRole } from "../auth/access.js";
import { principalName } from "../auth/principal.js";
import type { CredentialsFile } from "../commands/machine-create.js";
import { callerOf } from "../server/caller.js";
import type { CloudContext } from "../server/cloud-context.js";
import { createApiKey } from "../storage/api-keys.js";
import { requireId } from "./app-names.js";

export function partCredentialsPart(cloud: CloudContext): Partial<ServiceImpl<typeof CloudService>> {
  const { db } = cloud.store;
  return {
    async createPartCredentials(request, context) {
      const principal = callerOf(context);
      const part = await requirePartRole(db, principal, requireId("part_id", request.partId), "operator");
      const key = await createApiKey(db, { organizationId: part.organization_id, name: `credentials by ${principalName(principal)}`, scope: "part", scopeId: part.id, now: cloud.clock.now() });
      const file: CredentialsFile = { cloud: { id: part.id, api_key: key, app_address: cloud.publicUrl } };
      return { keyId: key.id, credentialsJson: JSON.stringify(file, null, 2) };
    },
  };
}

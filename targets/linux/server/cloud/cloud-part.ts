// Who a cloud-managed machine is, as svc-cloud answers with its config (MachineConfig): the ids
// GetCloudMetadata gives and the names the machine is reached by. Never a secret.
import type { CloudMetadata } from "../../../../core/index.js";
import type { MachineConfigResponse } from "../../../../proto/gen/svc/cloud/v1/cloud_pb.js";

export type CloudPart = Pick<MachineConfigResponse, "partId" | "machineId" | "locationId" | "primaryOrgId" | "fqdn" | "localFqdn">;

export function cloudPartOf(answer: CloudPart): CloudPart {
  const { partId, machineId, locationId, primaryOrgId, fqdn, localFqdn } = answer;
  return { partId, machineId, locationId, primaryOrgId, fqdn, localFqdn };
}

export function cloudMetadataOf(part: CloudPart): CloudMetadata {
  return { machinePartId: part.partId, machineId: part.machineId, locationId: part.locationId, primaryOrgId: part.primaryOrgId };
}

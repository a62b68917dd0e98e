// GetMachineStatus from the graph's view of the machine: each resource's state, error, revision
// and last change, the configuration's revision and when it was applied, and whether the machine
// is still INITIALIZING or RUNNING.
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { MachineState, ResourceState, ResourceStatus } from "../../graph/index.js";
import type {
  GetMachineStatusResponse_State,
  GetMachineStatusResponseSchema,
  ResourceStatus_State,
  ResourceStatusSchema,
} from "../../../proto/gen/robot/v1/robot_pb.js";
import type { ResourceNameSchema } from "../../../proto/gen/common/v1/common_pb.js";
import type { CloudMetadata, RobotServiceDeps } from "./robot-service-deps.js";
import { timestampFromMs } from "./wire-time.js";

type ResourceNameInit = MessageInitShape<typeof ResourceNameSchema>;
type ResourceStatusInit = MessageInitShape<typeof ResourceStatusSchema>;
export type MachineStatusInit = MessageInitShape<typeof GetMachineStatusResponseSchema>;

// The wire numbers of the two State enums (numbers, so the core never loads the generated code).
const resourceStates: Record<ResourceState, ResourceStatus_State> = {
  UNCONFIGURED: 1,
  CONFIGURING: 2,
  READY: 3,
  REMOVING: 4,
  UNHEALTHY: 5,
};

const machineStates: Record<MachineState, GetMachineStatusResponse_State> = {
  INITIALIZING: 1,
  RUNNING: 2,
};

/**
 * `rdk:component:motor/left` as the wire's ResourceName; tolerant of names the graph holds in
 * error. A remote's resource (`rdk:component:motor/pi:left`) is named as Viam names it: `left`,
 * with the parts it is reached through in `remote_path` (`["pi"]`).
 */
export function wireResourceName(fullName: string): ResourceNameInit {
  const slash = fullName.indexOf("/");
  const api = slash < 0 ? fullName : fullName.slice(0, slash);
  const parts = api.split(":");
  return withRemotePath({
    namespace: parts[0] ?? "",
    type: parts[1] ?? "",
    subtype: parts.slice(2).join(":"),
    name: slash < 0 ? "" : fullName.slice(slash + 1),
  });
}

/** A ResourceName whose name may be a remote's (`pi:left`), as the wire carries it. */
export function withRemotePath(name: { namespace: string; type: string; subtype: string; name: string }): ResourceNameInit {
  const colon = name.name.lastIndexOf(":");
  if (colon < 0) return name;
  return { namespace: name.namespace, type: name.type, subtype: name.subtype, name: name.name.slice(colon + 1), remotePath: name.name.slice(0, colon).split(":") };
}

export function wireCloudMetadata(cloud: CloudMetadata) {
  return {
    // The deprecated robot_part_id repeats machine_part_id, as the reference server fills it.
    robotPartId: cloud.machinePartId,
    primaryOrgId: cloud.primaryOrgId,
    locationId: cloud.locationId,
    machineId: cloud.machineId,
    machinePartId: cloud.machinePartId,
  };
}

function wireResourceStatus(status: ResourceStatus, cloud: CloudMetadata | undefined): ResourceStatusInit {
  return {
    name: wireResourceName(status.name),
    state: resourceStates[status.state] ?? 0,
    lastUpdated: timestampFromMs(status.changedAt),
    revision: status.revision,
    error: status.error ?? "",
    cloudMetadata: cloud && wireCloudMetadata(cloud),
  };
}

export function machineStatusResponse(deps: RobotServiceDeps): MachineStatusInit {
  const status = deps.machineStatus();
  const cloud = deps.cloudMetadata();
  const resources = status.resources.map((r) => wireResourceStatus(r, cloud));
  for (const module of deps.moduleStatuses?.() ?? []) resources.push(wireResourceStatus(module, undefined));
  const updatedAt = deps.configUpdatedAt();
  return {
    resources,
    config: { revision: status.revision, lastUpdated: updatedAt > 0 ? timestampFromMs(updatedAt) : undefined },
    state: machineStates[status.state] ?? 0,
    jobStatuses: [],
  };
}

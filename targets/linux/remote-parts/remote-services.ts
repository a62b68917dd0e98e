// Which protobuf service serves each API a remote part lists (its ResourceRPCSubtypes answer), so
// a call to a service this machine does not serve itself (a remote viam-server's arm, a modular
// API) can be passed to the part whose resource it names. Only APIs the part lists are kept, only
// names shaped like a service (`viam.component.arm.v1.ArmService`), at most MAX_REMOTE_SERVICES.
import { fromBinary } from "@bufbuild/protobuf";
import { ResourceRPCSubtypesResponseSchema } from "../../../proto/gen/robot/v1/robot_pb.js";
import { MAX_NAME_CHARS } from "./remote-listing.js";

export const MAX_REMOTE_SERVICES = 256;

const serviceName = /^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$/;

/** Service -> API, from a ResourceRPCSubtypes answer's bytes, for the APIs in `listed`; throws when they are not one. */
export function readServices(bytes: Uint8Array, listed: ReadonlySet<string>): Map<string, string> {
  const answer = fromBinary(ResourceRPCSubtypesResponseSchema, bytes);
  const services = new Map<string, string>();
  for (const { subtype, protoService } of answer.resourceRpcSubtypes) {
    if (subtype === undefined || services.size === MAX_REMOTE_SERVICES) continue;
    const api = `${subtype.namespace}:${subtype.type}:${subtype.subtype}`;
    if (!listed.has(api) || protoService.length > MAX_NAME_CHARS || !serviceName.test(protoService)) continue;
    if (!services.has(protoService)) services.set(protoService, api);
  }
  return services;
}

/** Whether two maps of services say the same. */
export function sameServices(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [service, api] of a) if (b.get(service) !== api) return false;
  return true;
}

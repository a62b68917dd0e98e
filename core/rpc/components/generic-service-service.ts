// viam.service.generic.v1.GenericService: DoCommand is the whole API.
import type { GenericService } from "../../../proto/gen/service/generic/v1/generic_pb.js";
import { GENERIC_SERVICE_API } from "../../components/index.js";
import type { ResourceLookup } from "../resource-lookup.js";
import type { ServiceHandlers } from "./handler-types.js";
import { doCommandMethod } from "./shared-methods.js";

export function createGenericServiceService(lookup: ResourceLookup): ServiceHandlers<typeof GenericService> {
  return {
    doCommand: doCommandMethod(lookup, GENERIC_SERVICE_API),
  };
}

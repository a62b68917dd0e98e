// viam.component.generic.v1.GenericService: DoCommand is the whole API. A generic component has
// no shape, so its geometries are an empty list.
import type { GenericService } from "../../../proto/gen/component/generic/v1/generic_pb.js";
import { GENERIC_COMPONENT_API } from "../../components/index.js";
import type { ResourceLookup } from "../resource-lookup.js";
import type { ServiceHandlers } from "./handler-types.js";
import { doCommandMethod, noGeometriesMethod } from "./shared-methods.js";

export function createGenericComponentService(lookup: ResourceLookup): ServiceHandlers<typeof GenericService> {
  return {
    doCommand: doCommandMethod(lookup, GENERIC_COMPONENT_API),
    getGeometries: noGeometriesMethod(lookup, GENERIC_COMPONENT_API),
  };
}

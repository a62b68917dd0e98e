// viam.service.datamanager.v1.DataManagerService: Sync and DoCommand. Uploading binary data into
// datasets needs the cloud's data service, which svc does not reach: UNIMPLEMENTED, naming the
// data manager.
import type { DataManagerService } from "../../../proto/gen/service/datamanager/v1/data_manager_pb.js";
import { Code, SvcError } from "../../errors/index.js";
import { formatResourceName } from "../../resource/index.js";
import { doCommandMethod, resolveResource, type ResourceLookup, type ServiceHandlers } from "../../rpc/index.js";
import { DATA_MANAGER_API } from "../../components/index.js";
import type { DataManager } from "./data-manager.js";

export function createDataManagerService(lookup: ResourceLookup): ServiceHandlers<typeof DataManagerService> {
  return {
    async sync(request) {
      await resolveResource<DataManager>(lookup, DATA_MANAGER_API, request.name, "sync", "Sync").sync(request.extra);
      return {};
    },
    doCommand: doCommandMethod(lookup, DATA_MANAGER_API),
    async uploadBinaryDataToDatasets(request) {
      const manager = lookup.resource(DATA_MANAGER_API, request.name);
      throw new SvcError(Code.Unimplemented, `${formatResourceName(manager.name)} does not support UploadBinaryDataToDatasets (svc uploads no data)`);
    },
  };
}

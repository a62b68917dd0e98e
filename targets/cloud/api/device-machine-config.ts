// `svc.cloud.v1.CloudService.MachineConfig`: the part's config in svc's own JSON, as svc-server
// reads a config file. RobotConfig (RobotService.Config) is Viam's shape and has no field for some
// of svc's keys (global_log_configuration, network.max_message_bytes, a module's version); this
// answer keeps every one. Fragments are merged as for Config, and the same callers may ask: the
// part's own key (its access is noted) or a person or organisation key that may operate the part;
// another part's key is answered as if the part did not exist.
import type { ServiceImpl } from "@connectrpc/connect";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import type { CloudService } from "../../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { effectiveConfigFrom } from "../fleet/effective-config.js";
import { partCloudAt } from "../fleet/part-cloud.js";
import type { CloudContext } from "../server/cloud-context.js";
import { reachServedPart } from "./part-access.js";

export function deviceMachineConfigPart(cloud: CloudContext): Partial<ServiceImpl<typeof CloudService>> {
  const { store } = cloud;
  return {
    async machineConfig(request, context) {
      const { part, ownConfig, revisionTime, location } = await reachServedPart(cloud, context, request.partId);
      const effective = await effectiveConfigFrom(store.db, part, ownConfig, revisionTime);
      // The machine's own credentials make its `cloud`; the revision is said beside the config.
      const { cloud: _own, revision: _stored, ...config } = effective.config;
      const who = partCloudAt(part, location, cloud.publicUrl);
      return {
        config: JSON.stringify(config),
        revision: String(effective.revision),
        time: timestampFromMs(effective.time),
        partId: who.id,
        machineId: who.machine_id,
        locationId: who.location_id,
        primaryOrgId: who.primary_org_id,
        fqdn: who.fqdn,
        localFqdn: who.local_fqdn,
      };
    },
  };
}

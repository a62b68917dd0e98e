// The device side of `viam.app.v1.RobotService`: Config (the part's config as Viam's RobotConfig,
// fragments merged and `cloud` filled in), NeedsRestart and Certificate. Log is served by its own
// part (logs-device.ts). Each call is the part's own key, or a person or organisation key that
// may operate the part; another part's key is answered as if the part did not exist.
import type { ServiceImpl } from "@connectrpc/connect";
import { Code, SvcError } from "../../../core/index.js";
import type { RobotService } from "../../../proto/gen/app/v1/robot_pb.js";
import { requireDevicePart } from "../auth/access.js";
import type { Principal } from "../auth/principal.js";
import { partCloudAt, partCloudOf } from "../fleet/part-cloud.js";
import { configAnswer } from "../fleet/robot-config.js";
import { callerOf } from "../server/caller.js";
import type { CloudContext } from "../server/cloud-context.js";
import { certificateForPart } from "../fleet/certificate-authority.js";
import { takeRestartRequest } from "../storage/device-store.js";
import { notePartAccess, reachServedPart } from "./part-access.js";
import type { PartsTable } from "../storage/tables.js";

/** How often a machine asks whether to restart (Viam's interval). */
export const RESTART_CHECK_INTERVAL_S = 5;

export function deviceRobotPart(cloud: CloudContext): Partial<ServiceImpl<typeof RobotService>> {
  const { store, clock } = cloud;

  /** The part, checked for the caller, and its access noted. */
  const reach = async (principal: Principal, partId: string): Promise<PartsTable> => {
    const part = await requireDevicePart(store.db, principal, partId);
    await notePartAccess(cloud, principal, part);
    return part;
  };

  return {
    // The hottest call a fleet makes (every machine after every edit): the part, its revision and
    // its location are one read.
    async config(request, context) {
      const { part, ownConfig, revisionTime, location } = await reachServedPart(cloud, context, request.id);
      const partless = await cloud.partlessConfigs.of(store, part, ownConfig, revisionTime);
      return configAnswer(partless.config, partless.bytes, partCloudAt(part, location, cloud.publicUrl), String(part.revision));
    },

    async needsRestart(request, context) {
      const principal = callerOf(context);
      const part = await reach(principal, request.id);
      // Only the machine itself takes the request; a person asking only sees it.
      const mustRestart = principal.kind === "part-key" ? await takeRestartRequest(store.db, part.id) : part.restart_requested === 1;
      return { id: part.id, mustRestart, restartCheckInterval: { seconds: BigInt(RESTART_CHECK_INTERVAL_S), nanos: 0 } };
    },

    async certificate(request, context) {
      const principal = callerOf(context);
      // The private key is the machine's alone: people and organisation keys do not get it.
      if (principal.kind !== "part-key") throw new SvcError(Code.PermissionDenied, "a part's certificate and key are given to the part's own key only");
      const part = await reach(principal, request.id);
      const { fqdn, local_fqdn } = await partCloudOf(store.db, part, cloud.publicUrl);
      const issued = await certificateForPart(store.db, part.id, [fqdn, local_fqdn], clock.now());
      return { id: part.id, tlsCertificate: issued.certificatePem, tlsPrivateKey: issued.privateKeyPem };
    },
  };
}

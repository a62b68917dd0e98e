// `viam.app.v1.RobotService.Log`: a machine's log entries, up to MAX_LOG_BATCH a call, stored and
// handed to whoever tails the part. A part key writes its own part's logs only.
import type { ServiceImpl } from "@connectrpc/connect";
import type { RobotService } from "../../../proto/gen/app/v1/robot_pb.js";
import { requireDevicePart } from "../auth/access.js";
import { callerOf } from "../server/caller.js";
import type { CloudContext } from "../server/cloud-context.js";
import { insertLogs } from "../storage/logs-store.js";
import { rowsOf } from "./logs-entries.js";

export function logsDevicePart(cloud: CloudContext): Partial<ServiceImpl<typeof RobotService>> {
  return {
    async log(request, context) {
      const part = await requireDevicePart(cloud.store.db, callerOf(context), request.id);
      const rows = rowsOf(part.id, request.logs, cloud.clock.now());
      await insertLogs(cloud.store.db, rows);
      cloud.logs.publish(part.id, rows);
      return {};
    },
  };
}

// `viam.app.v1.RobotService.Log`: a machine's log entries, up to MAX_LOG_BATCH a call, checked,
// stored as one chunk and handed to whoever tails the part. A part key writes its own part's logs
// only. On the short way the request is read as svc.cloud.v1.LogBatch (the same wire, each entry
// still its bytes), so no entry is decoded into objects on the way in; a request that came the
// general way (connect's JSON or compressed forms) has its entries encoded to the same bytes.
import { isMessage, toBinary } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import { LogEntrySchema } from "../../../proto/gen/common/v1/common_pb.js";
import { RobotService, type LogRequest } from "../../../proto/gen/app/v1/robot_pb.js";
import { LogBatchSchema, type LogBatch } from "../../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { requireDevicePart } from "../auth/access.js";
import { callerOf } from "../server/caller.js";
import type { CloudContext } from "../server/cloud-context.js";
import { insertLogChunk } from "../storage/logs-store.js";
import { checkedEntries } from "./checked-entries.js";

/** The requests the short way reads with a message of svc-cloud's own (rpc-handler's wireInputs). */
export const LOG_WIRE_INPUTS: ReadonlyMap<string, typeof LogBatchSchema> = new Map([[`/${RobotService.typeName}/${RobotService.method.log.name}`, LogBatchSchema]]);

function entryBytes(request: LogRequest | LogBatch): readonly Uint8Array[] {
  return isMessage(request, LogBatchSchema) ? request.logs : request.logs.map((entry) => toBinary(LogEntrySchema, entry));
}

export function logsDevicePart(cloud: CloudContext): Partial<ServiceImpl<typeof RobotService>> {
  return {
    async log(request, context) {
      const part = await requireDevicePart(cloud.store.db, callerOf(context), request.id);
      const now = cloud.clock.now();
      const entries = checkedEntries(entryBytes(request as LogRequest | LogBatch), now);
      await insertLogChunk(cloud.store.db, part.id, now, entries);
      cloud.logs.publish(part.id, entries);
      return {};
    },
  };
}

// How much a part logs (GetLogVolume): its entries counted by level in equal spans of a time range,
// for the web app's chart, for anyone who may read the part's logs. The range defaults to the last
// day in 48 spans; it may reach back as far as logs are kept, no further.
import { timestampFromMs, timestampMs } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import { Code, SvcError } from "../../../core/index.js";
import type { CloudService } from "../../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { requirePartRole } from "../auth/access.js";
import { callerOf } from "../server/caller.js";
import type { CloudContext } from "../server/cloud-context.js";
import { nextTurn } from "../server/next-turn.js";
import { logVolume } from "../storage/logs-store.js";
import { requireId } from "./app-names.js";
import { LOG_LEVELS } from "./logs-entries.js";

const DAY_MS = 24 * 60 * 60_000;
/** The longest range: logs are kept 30 days. */
export const MAX_VOLUME_RANGE_MS = 31 * DAY_MS;
export const MAX_VOLUME_BUCKETS = 500;
const DEFAULT_BUCKETS = 48;

export function logVolumePart(cloud: CloudContext): Partial<ServiceImpl<typeof CloudService>> {
  const { db } = cloud.store;
  return {
    async getLogVolume(request, context) {
      const part = await requirePartRole(db, callerOf(context), requireId("part_id", request.partId), "viewer");
      const endMs = request.end === undefined ? cloud.clock.now() : timestampMs(request.end);
      const startMs = request.start === undefined ? endMs - DAY_MS : timestampMs(request.start);
      if (!(endMs > startMs)) throw new SvcError(Code.InvalidArgument, "end: must be after start");
      if (endMs - startMs > MAX_VOLUME_RANGE_MS) throw new SvcError(Code.InvalidArgument, `start..end: at most 31 days (logs are kept 30)`);
      const buckets = request.buckets === 0 ? DEFAULT_BUCKETS : request.buckets;
      if (buckets > MAX_VOLUME_BUCKETS) throw new SvcError(Code.InvalidArgument, `buckets: 1 to ${MAX_VOLUME_BUCKETS} (got ${buckets})`);
      const counts = await logVolume(db, { partId: part.id, startMs, endMs, buckets, signal: context.signal, turn: nextTurn });
      const width = (endMs - startMs) / buckets;
      return {
        levels: [...LOG_LEVELS],
        buckets: counts.map((row, index) => ({ start: timestampFromMs(Math.round(startMs + index * width)), counts: row })),
      };
    },
  };
}

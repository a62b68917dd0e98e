// `svc.cloud.v1.CloudService.WatchRevisions`: the part's new revisions, pushed as they are saved,
// so a machine fetches Config at once instead of at its next poll. The stream opens with the
// current revision. When nothing happened for a while it sends the current revision again: that
// repeat is the heartbeat, so a machine that hears nothing for twice the interval knows its
// connection is dead, and a write to a dead connection ends the stream here. On each heartbeat
// the caller's key is checked again, so a revoked key's stream ends. The subscription to the
// revision bus is dropped however the stream ends.
import type { ServiceImpl } from "@connectrpc/connect";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import type { CloudService, RevisionNotice as WireNotice } from "../../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { requireDevicePart } from "../auth/access.js";
import { resolvePrincipal } from "../auth/resolve-principal.js";
import { createNoticeSlot } from "../fleet/notice-slot.js";
import type { RevisionNotice } from "../fleet/revision-bus.js";
import { callerOf } from "../server/caller.js";
import type { CloudContext } from "../server/cloud-context.js";
import { LAST_ACCESS_RESOLUTION_MS, touchPart } from "../storage/device-store.js";
import { currentRevision } from "../storage/revisions.js";

/** How long a stream stays silent before it repeats the current revision. */
export const WATCH_HEARTBEAT_MS = 15_000;

type Init<T> = Omit<T, "$typeName" | "$unknown">;

function toWire(notice: RevisionNotice): Init<WireNotice> {
  return { partId: notice.partId, revision: String(notice.revision), time: timestampFromMs(notice.time) };
}

export function deviceWatchPart(cloud: CloudContext, heartbeatMs = WATCH_HEARTBEAT_MS): Partial<ServiceImpl<typeof CloudService>> {
  const { store, clock, revisions } = cloud;
  return {
    async *watchRevisions(request, context) {
      const principal = callerOf(context);
      const part = await requireDevicePart(store.db, principal, request.partId);
      const slot = createNoticeSlot<RevisionNotice>(clock);
      // Subscribed before the current revision is read, so no save between the two is missed.
      const unsubscribe = revisions.subscribe(part.id, (notice) => slot.put(notice));
      // The part's access is written only once LAST_ACCESS_RESOLUTION_MS old (touchPart's own rule):
      // the stream knows when it last wrote it, so most heartbeats need no statement for it.
      let accessed = part.last_access === null ? -Infinity : Number(part.last_access);
      const touch = async () => {
        if (principal.kind !== "part-key" || clock.now() <= accessed + LAST_ACCESS_RESOLUTION_MS) return;
        accessed = clock.now();
        await touchPart(store.db, part.id, accessed);
      };
      try {
        await touch();
        const row = await currentRevision(store.db, part.id);
        let last: RevisionNotice = { partId: part.id, revision: row.revision, time: Number(row.created_at) };
        yield toWire(last);
        for (;;) {
          const next = await slot.take(context.signal, heartbeatMs);
          if (next.kind === "ended") return;
          if (next.kind === "quiet") {
            await resolvePrincipal(store, principal.subject);
            // A machine that only listens is still online: its heartbeat is its access.
            await touch();
            yield toWire(last);
            continue;
          }
          // A notice for what was already sent (published twice, or older) is not sent again.
          if (next.notice.revision <= last.revision) continue;
          last = next.notice;
          yield toWire(last);
        }
      } finally {
        unsubscribe();
      }
    },
  };
}

// A part's status: its machine says which revision it runs and which it refused, and why
// (ReportConfigStatus, the part's own key only); people with viewer or more read it beside when
// the machine last reached svc-cloud and the versions its agent reported (GetPartStatus), which the
// part's page shows. A report is bounded: a revision is short, a reason at most 4 KiB of text
// (longer is cut, and says so); anything else is refused in words.
import type { ServiceImpl } from "@connectrpc/connect";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { Code, SvcError } from "../../../core/index.js";
import type { CloudService } from "../../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { requireDevicePart, requirePartRole } from "../auth/access.js";
import { callerOf } from "../server/caller.js";
import type { CloudContext } from "../server/cloud-context.js";
import { configStatusOf, recordConfigStatus } from "../storage/part-config-status.js";
import { reportedVersionsOf } from "../storage/reported-versions.js";
import { requireId } from "./app-names.js";

export const MAX_REPORTED_REASON = 4096;
const MAX_REVISION = 64;
const CUT = " … (cut)";

function revisionField(name: string, value: string): string {
  if (value.length > MAX_REVISION) throw new SvcError(Code.InvalidArgument, `${name}: at most ${MAX_REVISION} characters (found ${value.length})`);
  return value;
}

function reasonField(value: string): string {
  return value.length > MAX_REPORTED_REASON ? value.slice(0, MAX_REPORTED_REASON - CUT.length) + CUT : value;
}

export function partStatusPart(cloud: CloudContext): Partial<ServiceImpl<typeof CloudService>> {
  const { db } = cloud.store;
  return {
    async reportConfigStatus(request, context) {
      const principal = callerOf(context);
      const partId = requireId("part_id", request.partId);
      if (principal.kind !== "part-key") throw new SvcError(Code.PermissionDenied, "ReportConfigStatus is the machine's own: only its part's key may report");
      const part = await requireDevicePart(db, principal, partId);
      const refused = revisionField("refused_revision", request.refusedRevision);
      if (refused === "" && request.refusedReason !== "") throw new SvcError(Code.InvalidArgument, "refused_reason: given without refused_revision");
      await recordConfigStatus(db, {
        part_id: part.id,
        running_revision: revisionField("running_revision", request.runningRevision),
        refused_revision: refused,
        refused_reason: reasonField(request.refusedReason),
        reported_at: cloud.clock.now(),
      });
      return {};
    },

    async getPartStatus(request, context) {
      const part = await requirePartRole(db, callerOf(context), requireId("part_id", request.partId), "viewer");
      const versions = reportedVersionsOf(part.reported_versions);
      const config = await configStatusOf(db, part.id);
      return {
        lastAccess: part.last_access === null ? undefined : timestampFromMs(Number(part.last_access)),
        svcServer: versions.server ?? "",
        svcServerInstalled: versions.server_installed ?? "",
        svcAgent: versions.agent ?? "",
        svcAgentInstalled: versions.agent_installed ?? "",
        os: versions.os ?? "",
        platform: versions.platform ?? "",
        revision: String(part.revision),
        runningRevision: config?.running_revision ?? "",
        refusedRevision: config?.refused_revision ?? "",
        refusedReason: config?.refused_reason ?? "",
        configReportedAt: config === undefined ? undefined : timestampFromMs(Number(config.reported_at)),
      };
    },
  };
}

// The versions of a whole location (GetLocationVersions, SetLocationVersions): what each part's
// config tells its machine to install (agent.version_control) beside what its agent last reported,
// and one change of them for every part of the location. The change is made in one transaction:
// each part's config is checked as any edit is (fragments merged), and if any part would be
// refused none changes; a part already asking for those versions gets no new revision. Every
// machine with a new revision is told at once.
import type { ServiceImpl } from "@connectrpc/connect";
import type { Kysely } from "kysely";
import { Code, SvcError } from "../../../core/index.js";
import { withVersionControl, type VersionControlKey } from "../../../core/agent/index.js";
import type { CloudService } from "../../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { principalName } from "../auth/principal.js";
import { checkPartConfig } from "../fleet/check-part-config.js";
import { callerOf } from "../server/caller.js";
import type { CloudContext } from "../server/cloud-context.js";
import { appendRevisions } from "../storage/revisions.js";
import { reportedVersionsOf } from "../storage/reported-versions.js";
import type { Tables } from "../storage/tables.js";
import { lockOrganization } from "../storage/write-locks.js";
import { requireLocationRole } from "./app-access.js";
import { checkOwnConfig } from "./app-config-check.js";

type Config = Record<string, unknown>;

/** The location's parts, each with its current config, in machine then part order. */
async function partsOf(db: Kysely<Tables>, locationId: string) {
  const rows = await db
    .selectFrom("parts")
    .innerJoin("machines", "machines.id", "parts.machine_id")
    .innerJoin("part_revisions", (join) => join.onRef("part_revisions.part_id", "=", "parts.id").onRef("part_revisions.revision", "=", "parts.revision"))
    .select(["parts.id", "parts.name", "parts.reported_versions", "machines.name as machine_name", "part_revisions.config"])
    .where("machines.location_id", "=", locationId)
    .where("parts.deleted_at", "is", null)
    .orderBy("machines.name")
    .orderBy("parts.name")
    .execute();
  return rows.map((row) => ({ ...row, config: JSON.parse(row.config) as Config }));
}

function specOf(config: Config, key: VersionControlKey): string {
  const control = (config.agent as { version_control?: Record<string, unknown> } | undefined)?.version_control;
  const spec = control?.[key];
  return typeof spec === "string" ? spec : "stable";
}

export function locationVersionsPart(cloud: CloudContext): Partial<ServiceImpl<typeof CloudService>> {
  const { db } = cloud.store;
  return {
    async getLocationVersions(request, context) {
      const location = await requireLocationRole(db, callerOf(context), request.locationId, "viewer");
      const parts = await partsOf(db, location.id);
      return {
        parts: parts.map((part) => {
          const reported = reportedVersionsOf(part.reported_versions);
          return {
            partId: part.id,
            partName: part.name,
            machineName: part.machine_name,
            svcServer: specOf(part.config, "svc-server"),
            svcAgent: specOf(part.config, "agent"),
            svcServerReported: reported.server ?? "",
            svcAgentReported: reported.agent ?? "",
          };
        }),
      };
    },

    async setLocationVersions(request, context) {
      const principal = callerOf(context);
      const location = await requireLocationRole(db, principal, request.locationId, "operator");
      const specs: Partial<Record<VersionControlKey, string>> = { "svc-server": request.svcServer, agent: request.svcAgent };
      if (request.svcServer === undefined && request.svcAgent === undefined) throw new SvcError(Code.InvalidArgument, "svc_server, svc_agent: name at least one");
      const notices = await db.transaction().execute(async (tx) => {
        await lockOrganization(tx, { locationId: location.id });
        const changed: { partId: string; config: Config }[] = [];
        for (const part of await partsOf(tx, location.id)) {
          const config = withVersionControl(part.config, specs);
          if (JSON.stringify(config) === JSON.stringify(part.config)) continue;
          const label = `part ${JSON.stringify(part.name)} of machine ${JSON.stringify(part.machine_name)}`;
          try {
            checkOwnConfig("robot_config", config);
            await checkPartConfig(tx, location.organization_id, config);
          } catch (thrown) {
            if (!(thrown instanceof SvcError)) throw thrown;
            throw new SvcError(thrown.code, `no part was changed: ${label} would be refused: ${thrown.message}`);
          }
          changed.push({ partId: part.id, config });
        }
        return appendRevisions(tx, changed, principalName(principal), cloud.clock.now());
      });
      for (const notice of notices) cloud.revisions.publish(notice);
      return { partsChanged: notices.length };
    },
  };
}

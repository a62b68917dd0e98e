// A part's config history and restoring an earlier revision. History answers Viam's entries,
// newest first: when, who, and the part as that revision left it (`old`), its config carrying the
// revision's number as `revision` (Viam's entries carry no number of their own). A restore saves a
// NEW revision equal to the old one, checked as any edit is, and tells the machine at once:
// history is never rewritten.
import type { MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import { Code, SvcError } from "../../../core/index.js";
import { AuthenticationType, type AppService, type AuthenticatorInfoSchema } from "../../../proto/gen/app/v1/app_pb.js";
import type { CloudService } from "../../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { requirePartRole } from "../auth/access.js";
import { principalName } from "../auth/principal.js";
import { checkPartConfig } from "../fleet/check-part-config.js";
import { callerOf } from "../server/caller.js";
import type { CloudContext } from "../server/cloud-context.js";
import { findMachine } from "../storage/machines-store.js";
import { findRevision, recentRevisions } from "../storage/part-history.js";
import { saveRevision } from "../storage/revisions.js";
import type { PartsTable } from "../storage/tables.js";
import { requireId } from "./app-names.js";
import { robotPartMessage } from "./app-wire.js";

/** How many revisions history answers, newest first. */
export const HISTORY_LIMIT = 100;
/** How many characters of configs one history answer carries at most (answers are limited to 4 MiB). */
export const HISTORY_MAX_CHARACTERS = 3 * 1024 * 1024;

export function historyAppPart(cloud: CloudContext): Partial<ServiceImpl<typeof AppService>> {
  const { db } = cloud.store;
  return {
    async getRobotPartHistory(request, context) {
      const part = await requirePartRole(db, callerOf(context), requireId("id", request.id), "viewer");
      const locationId = (await findMachine(db, part.machine_id))?.location_id ?? "";
      const rows = await recentRevisions(db, part.id, HISTORY_LIMIT, HISTORY_MAX_CHARACTERS);
      const now = cloud.clock.now();
      return {
        history: rows.map((row) => {
          const config = { ...(JSON.parse(row.config) as Record<string, unknown>), revision: String(row.revision) };
          const asThen: PartsTable = { ...part, revision: row.revision, updated_at: Number(row.created_at) };
          return {
            part: part.id,
            robot: part.machine_id,
            when: timestampFromMs(Number(row.created_at)),
            old: robotPartMessage(asThen, locationId, now, config),
            editedBy: authenticatorOf(row.edited_by),
          };
        }),
      };
    },
  };
}

export function historyCloudPart(cloud: CloudContext): Partial<ServiceImpl<typeof CloudService>> {
  const { db } = cloud.store;
  return {
    async restoreRobotPartRevision(request, context) {
      const principal = callerOf(context);
      const part = await requirePartRole(db, principal, requireId("part_id", request.partId), "operator");
      const number = revisionNumber(request.revision);
      const old = await findRevision(db, part.id, number);
      if (old === undefined) throw new SvcError(Code.NotFound, `part ${part.id} has no revision ${number} (its newest is ${part.revision})`);
      const config = JSON.parse(old.config) as Record<string, unknown>;
      delete config.revision;
      const check = async (tx: typeof db) => {
        try {
          await checkPartConfig(tx, part.organization_id, config);
        } catch (thrown) {
          if (!(thrown instanceof SvcError)) throw thrown;
          throw new SvcError(thrown.code, `revision ${number} cannot be restored as it is: ${thrown.message}`);
        }
      };
      const restored = await saveRevision(db, { partId: part.id, config, editedBy: principalName(principal), now: cloud.clock.now(), check });
      cloud.revisions.publish(restored);
      const saved = await requirePartRole(db, principal, part.id, "viewer");
      const locationId = (await findMachine(db, part.machine_id))?.location_id ?? "";
      return { part: robotPartMessage(saved, locationId, cloud.clock.now(), { ...config, revision: String(restored.revision) }) };
    },
  };
}

function revisionNumber(text: string): number {
  const trimmed = text.trim();
  if (!/^[1-9]\d{0,15}$/.test(trimmed)) {
    throw new SvcError(Code.InvalidArgument, `revision ${JSON.stringify(text)}: expected a revision number, as history gives it in each entry's robot_config.revision`);
  }
  return Number(trimmed);
}

/** Who made a revision, as Viam says it: a person by email, a key by its id. */
function authenticatorOf(editedBy: string): MessageInitShape<typeof AuthenticatorInfoSchema> {
  if (editedBy.startsWith("api-key:")) return { type: AuthenticationType.API_KEY, value: editedBy.slice("api-key:".length) };
  if (editedBy.includes("@")) return { type: AuthenticationType.WEB_OAUTH, value: editedBy };
  return { type: AuthenticationType.UNSPECIFIED, value: editedBy };
}

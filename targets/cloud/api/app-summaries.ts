// ListMachineSummaries: every machine of an organisation by location, each part with when it was
// last seen and the versions its agent last reported (parts.reported_versions: `server`, `agent`,
// `os`, `platform`). Filtered by locations and by the fragments a part's own config lists.
import type { MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import type { ListMachineSummariesRequest, ListMachineSummariesResponseSchema, PartSummarySchema } from "../../../proto/gen/app/v1/app_pb.js";
import { requireRole } from "../auth/access.js";
import type { Principal } from "../auth/principal.js";
import type { CloudContext } from "../server/cloud-context.js";
import { currentConfigs, partsOf } from "../storage/machines-store.js";
import { reportedVersionsOf } from "../storage/reported-versions.js";
import type { PartsTable } from "../storage/tables.js";
import { requireId } from "./app-names.js";
import { presence } from "./app-wire.js";

type Summaries = MessageInitShape<typeof ListMachineSummariesResponseSchema>;

export async function machineSummaries(cloud: CloudContext, principal: Principal, request: ListMachineSummariesRequest): Promise<Summaries> {
  const { db } = cloud.store;
  const organizationId = requireId("organization_id", request.organizationId);
  await requireRole(db, principal, organizationId, "viewer", `organisation ${organizationId}`);
  let locations = db.selectFrom("locations").selectAll().where("organization_id", "=", organizationId);
  if (request.locationIds.length > 0) locations = locations.where("id", "in", request.locationIds);
  const locationRows = await locations.orderBy("created_at").execute();
  if (locationRows.length === 0) return { locationSummaries: [] };
  const machineRows = await db
    .selectFrom("machines")
    .selectAll()
    .where("location_id", "in", locationRows.map((l) => l.id))
    .where("deleted_at", "is", null)
    .orderBy("name")
    .execute();
  const partRows = await partsOf(db, machineRows.map((m) => m.id));
  const parts = new Map<string, PartsTable[]>();
  for (const part of partRows) parts.set(part.machine_id, [...(parts.get(part.machine_id) ?? []), part]);
  const configs = await currentConfigs(db, partRows.map((p) => p.id));
  const fragmentsOf = new Map(partRows.map((p) => [p.id, fragmentIds(configs.get(p.id))]));
  const wanted = new Set(request.fragmentIds);
  let kept = machineRows.filter((m) => wanted.size === 0 || (parts.get(m.id) ?? []).some((p) => fragmentsOf.get(p.id)!.some((id) => wanted.has(id))));
  if (request.limit !== undefined && request.limit > 0) kept = kept.slice(0, request.limit);
  const now = cloud.clock.now();
  return {
    locationSummaries: locationRows
      .map((location) => ({
        locationId: location.id,
        locationName: location.name,
        machineSummaries: kept
          .filter((m) => m.location_id === location.id)
          .map((m) => ({ machineId: m.id, machineName: m.name, partSummaries: (parts.get(m.id) ?? []).map((p) => partSummary(p, fragmentsOf.get(p.id)!, now)) })),
      }))
      // Filtering by fragments answers only the locations where something matched.
      .filter((summary) => wanted.size === 0 || summary.machineSummaries.length > 0),
  };
}

function partSummary(part: PartsTable, fragments: string[], now: number): MessageInitShape<typeof PartSummarySchema> {
  const seen = part.last_access === null ? null : Number(part.last_access);
  const versions = reportedVersionsOf(part.reported_versions);
  const { onlineState, secondsSinceOnline } = presence(seen, now);
  return {
    partId: part.id,
    partName: part.name,
    isMainPart: part.main_part === 1,
    onlineState,
    secondsSinceOnline,
    ...(seen === null ? {} : { lastOnline: timestampFromMs(seen), lastAccess: timestampFromMs(seen) }),
    ...(versions.server === undefined ? {} : { viamServerVersion: { version: { case: "major", value: versions.server } } }),
    ...(versions.agent === undefined ? {} : { viamAgentVersion: { version: { case: "major", value: versions.agent } } }),
    ...(versions.os === undefined ? {} : { os: versions.os }),
    ...(versions.platform === undefined ? {} : { platform: versions.platform }),
    fragments: fragments.map((id) => ({ id })),
  };
}

/** The fragment ids a part's own config lists (`"fragments": ["id", {"id": "..."}]`). */
function fragmentIds(config: unknown): string[] {
  const list = (config as { fragments?: unknown })?.fragments;
  if (!Array.isArray(list)) return [];
  return list.map((f) => (typeof f === "string" ? f : typeof f?.id === "string" ? (f.id as string) : undefined)).filter((id): id is string => id !== undefined);
}

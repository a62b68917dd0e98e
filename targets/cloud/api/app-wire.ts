// svc-cloud's rows as AppService's messages. A part is online while it has reached the device API
// within the last minute (machines poll or hold the revision stream far more often than that);
// one that never has is awaiting setup.
import type { MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { OnlineState, type LocationSchema, type OrganizationSchema, type RobotPartSchema, type RobotSchema } from "../../../proto/gen/app/v1/app_pb.js";
import type { LocationsTable, MachinesTable, OrganizationsTable, PartsTable } from "../storage/tables.js";

/**
 * How recently a part must have reached svc-cloud to count as online: `last_access` is written at
 * most once a minute (LAST_ACCESS_RESOLUTION_MS), and a machine that only listens for revisions
 * touches it on its stream's heartbeat, so a live machine is never older than that and a bit.
 */
export const ONLINE_WINDOW_MS = 2 * 60_000;

export function organizationMessage(row: OrganizationsTable): MessageInitShape<typeof OrganizationSchema> {
  return { id: row.id, name: row.name, createdOn: timestampFromMs(Number(row.created_at)) };
}

export function locationMessage(row: LocationsTable, robotCount: number): MessageInitShape<typeof LocationSchema> {
  return {
    id: row.id,
    name: row.name,
    createdOn: timestampFromMs(Number(row.created_at)),
    organizations: [{ organizationId: row.organization_id, primary: true }],
    robotCount,
  };
}

export interface Presence {
  onlineState: OnlineState;
  secondsSinceOnline: bigint;
  lastAccess?: ReturnType<typeof timestampFromMs>;
}

/** Whether parts last seen at `lastAccess` (the newest of a machine's parts for a machine) are online. */
export function presence(lastAccess: number | null, now: number): Presence {
  if (lastAccess === null) return { onlineState: OnlineState.AWAITING_SETUP, secondsSinceOnline: 0n };
  const since = Math.max(0, now - lastAccess);
  return {
    onlineState: since <= ONLINE_WINDOW_MS ? OnlineState.ONLINE : OnlineState.OFFLINE,
    secondsSinceOnline: BigInt(Math.floor(since / 1000)),
    lastAccess: timestampFromMs(lastAccess),
  };
}

/** The newest last access among parts, or null when none has reached svc-cloud. */
export function newestAccess(parts: readonly PartsTable[]): number | null {
  const seen = parts.map((p) => p.last_access).filter((t): t is number => t !== null).map(Number);
  return seen.length === 0 ? null : Math.max(...seen);
}

export function robotMessage(row: MachinesTable, parts: readonly PartsTable[], now: number): MessageInitShape<typeof RobotSchema> {
  return { id: row.id, name: row.name, location: row.location_id, createdOn: timestampFromMs(Number(row.created_at)), ...presence(newestAccess(parts), now) };
}

/** A part; `config` is its own current config (fragments unmerged), given where the call answers it. */
export function robotPartMessage(row: PartsTable, locationId: string, now: number, config?: Record<string, unknown>): MessageInitShape<typeof RobotPartSchema> {
  return {
    id: row.id,
    name: row.name,
    robot: row.machine_id,
    mainPart: row.main_part === 1,
    locationId,
    robotConfig: config as MessageInitShape<typeof RobotPartSchema>["robotConfig"],
    createdOn: timestampFromMs(Number(row.created_at)),
    lastUpdated: timestampFromMs(Number(row.updated_at)),
    ...presence(row.last_access === null ? null : Number(row.last_access), now),
  };
}

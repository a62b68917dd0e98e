// What the device side writes about a part: when it last reached svc-cloud, and the restart a
// person asked for, taken once the part has been told.
import type { Kysely } from "kysely";
import { preparedQuery, type Value } from "./prepared-query.js";
import type { PartsTable, Tables } from "./tables.js";

/** How stale `last_access` may be before a call writes it again: one write a minute, not one a call. */
export const LAST_ACCESS_RESOLUTION_MS = 60_000;

/** Whether the part's `last_access` is recent enough that a call need not write it again. */
export function recentlyAccessed(part: Pick<PartsTable, "last_access">, now: number): boolean {
  return part.last_access !== null && Number(part.last_access) >= now - LAST_ACCESS_RESOLUTION_MS;
}

export async function touchPart(db: Kysely<Tables>, partId: string, now: number): Promise<void> {
  await touch.all(db, now, partId, now - LAST_ACCESS_RESOLUTION_MS);
}

/** A stand-in for a number (stand-ins are typed as text). */
const as = <T>(value: Value) => value as unknown as T;

// Every machine's stream heartbeat runs it: built once (prepared-query.ts).
const touch = preparedQuery((db, now, partId, staleBefore) =>
  db
    .updateTable("parts")
    .set({ last_access: as<number>(now) })
    .where("id", "=", partId)
    .where((eb) => eb.or([eb("last_access", "is", null), eb("last_access", "<", as<number>(staleBefore))])),
);

/** Whether a restart was asked for, clearing the request in the same step so it is told once. */
export async function takeRestartRequest(db: Kysely<Tables>, partId: string): Promise<boolean> {
  const result = await db.updateTable("parts").set({ restart_requested: 0 }).where("id", "=", partId).where("restart_requested", "=", 1).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

// A device call reaching its part: the part as served (its current revision and location, one
// read), checked for the caller. A call made with the part's own key is the part's last access,
// written at most once a minute; a person or organisation key reading the part is not the machine
// reaching svc-cloud.
import type { HandlerContext } from "@connectrpc/connect";
import { admitDevicePart } from "../auth/access.js";
import type { Principal } from "../auth/principal.js";
import { callerOf } from "../server/caller.js";
import type { CloudContext } from "../server/cloud-context.js";
import { recentlyAccessed, touchPart } from "../storage/device-store.js";
import { servedPart, type ServedPart } from "../storage/served-part.js";
import type { PartsTable } from "../storage/tables.js";

/** The part `partId` as served, for the caller of `context`; NotFound for a part it may not reach. */
export async function reachServedPart(cloud: Pick<CloudContext, "store" | "clock">, context: HandlerContext, partId: string): Promise<ServedPart> {
  const principal = callerOf(context);
  const served = await servedPart(cloud.store.db, partId);
  await admitDevicePart(cloud.store.db, principal, partId, served?.part);
  await notePartAccess(cloud, principal, served!.part);
  return served!;
}

export async function notePartAccess(cloud: Pick<CloudContext, "store" | "clock">, principal: Principal, part: Pick<PartsTable, "id" | "last_access">): Promise<void> {
  const now = cloud.clock.now();
  if (principal.kind === "part-key" && !recentlyAccessed(part, now)) await touchPart(cloud.store.db, part.id, now);
}

// A device call made with the part's own key is the part's last access, written at most once a
// minute; a person or organisation key reading the part is not the machine reaching svc-cloud.
import type { Principal } from "../auth/principal.js";
import type { CloudContext } from "../server/cloud-context.js";
import { recentlyAccessed, touchPart } from "../storage/device-store.js";
import type { PartsTable } from "../storage/tables.js";

export async function notePartAccess(cloud: Pick<CloudContext, "store" | "clock">, principal: Principal, part: Pick<PartsTable, "id" | "last_access">): Promise<void> {
  const now = cloud.clock.now();
  if (principal.kind === "part-key" && !recentlyAccessed(part, now)) await touchPart(cloud.store.db, part.id, now);
}

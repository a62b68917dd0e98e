// Who uses a fragment, for the web app's fragment page: each part whose current config reaches it
// (listing it, or listing a fragment that brings it), its machine, and the overrides it makes of
// that fragment (its fragment_mods entry), for a viewer or more of the fragment's organisation.
import type { ServiceImpl } from "@connectrpc/connect";
import type { CloudService } from "../../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { fragmentLookup } from "../fleet/fragment-lookup.js";
import { listedIn, partsUsing, type PartUsing } from "../fleet/fragment-users.js";
import { callerOf } from "../server/caller.js";
import type { CloudContext } from "../server/cloud-context.js";
import { reachFragment } from "./fragments-service.js";

/** The part's own overrides of `fragmentId`, as JSON, or "" when it makes none. */
function modsOf(user: PartUsing, fragmentId: string): string {
  const entries = Array.isArray(user.config.fragment_mods) ? (user.config.fragment_mods as { fragment_id?: unknown; mods?: unknown }[]) : [];
  const entry = entries.find((e) => e?.fragment_id === fragmentId);
  return entry === undefined ? "" : JSON.stringify(entry.mods ?? []);
}

export function fragmentUsersPart(cloud: CloudContext): Partial<ServiceImpl<typeof CloudService>> {
  const { db } = cloud.store;
  return {
    async listFragmentUsers(request, context) {
      const fragment = await reachFragment(db, callerOf(context), "fragment_id", request.fragmentId, "viewer");
      const users = await partsUsing(db, fragment.organization_id, fragment.id, fragmentLookup(db, fragment.organization_id));
      const machineIds = [...new Set(users.map((u) => u.machineId))];
      const machines = machineIds.length === 0 ? [] : await db.selectFrom("machines").select(["id", "name"]).where("id", "in", machineIds).execute();
      const machineName = new Map(machines.map((m) => [m.id, m.name]));
      return {
        users: users.map((user) => ({
          partId: user.partId,
          partName: user.name,
          machineId: user.machineId,
          machineName: machineName.get(user.machineId) ?? "",
          direct: listedIn(user.config).includes(fragment.id),
          modsJson: modsOf(user, fragment.id),
        })),
      };
    },
  };
}

// AppService's fragment calls, in Viam's shapes. Fragments are private to their organisation: a
// viewer reads them, an operator makes, changes and removes them (a change reaches machines, as an
// edit of their config does). Another organisation's fragment is not found, whatever its id. A
// change makes a new revision for every part using the fragment and tells each machine at once.
import type { MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromMs, timestampMs } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import type { Kysely } from "kysely";
import { Code, SvcError } from "../../../core/index.js";
import { FragmentVisibility, type AppService, type FragmentSchema, type FragmentUsageSchema } from "../../../proto/gen/app/v1/app_pb.js";
import { requireRole } from "../auth/access.js";
import { principalName, type Principal } from "../auth/principal.js";
import { fragmentLookup } from "../fleet/fragment-lookup.js";
import { fragmentUsage, type FragmentUsage } from "../fleet/fragment-users.js";
import { createFragment, deleteFragment, updateFragment } from "../fleet/save-fragment.js";
import { callerOf } from "../server/caller.js";
import type { CloudContext } from "../server/cloud-context.js";
import { findFragment, fragmentRevision, fragmentRevisions, listFragments } from "../storage/fragments-store.js";
import { newId } from "../storage/secrets.js";
import type { FragmentsTable, Tables } from "../storage/tables.js";
import { requireId } from "./app-names.js";

type Config = Record<string, unknown>;

export function fragmentsAppPart(cloud: CloudContext): Partial<ServiceImpl<typeof AppService>> {
  const { db } = cloud.store;

  const organizationName = async (id: string) => (await db.selectFrom("organizations").select("name").where("id", "=", id).executeTakeFirst())?.name ?? "";
  const usageIn = (organizationId: string) => fragmentUsage(db, organizationId, fragmentLookup(db, organizationId));

  const reach = (context: Parameters<typeof callerOf>[0], id: string, needed: "viewer" | "operator") => reachFragment(db, callerOf(context), "id", id, needed);

  return {
    async listFragments(request, context) {
      const organizationId = requireId("organization_id", request.organizationId);
      await requireRole(db, callerOf(context), organizationId, "viewer", `organization ${organizationId}`);
      const rows = await listFragments(db, organizationId);
      const usage = await usageIn(organizationId);
      const orgName = await organizationName(organizationId);
      return {
        fragments: rows.map((row) => fragmentMessage(row, orgName, usage.get(row.id))),
        fragmentUsages: rows.map((row) => usageMessage(row.id, usage.get(row.id))),
      };
    },

    async getFragment(request, context) {
      const row = await reach(context, request.id, "viewer");
      let shown = row;
      if (request.version !== undefined && request.version !== "") {
        const number = /^[1-9]\d{0,15}$/.test(request.version) ? Number(request.version) : NaN;
        const old = Number.isNaN(number) ? undefined : await fragmentRevision(db, row.id, number);
        if (old === undefined) throw new SvcError(Code.NotFound, `fragment ${row.id} has no revision ${JSON.stringify(request.version)} (its newest is ${row.revision})`);
        shown = { ...row, config: old.config, revision: old.revision, updated_at: Number(old.created_at) };
      }
      const usage = (await usageIn(row.organization_id)).get(row.id);
      const revisions = await fragmentRevisions(db, row.id);
      return {
        fragment: fragmentMessage(shown, await organizationName(row.organization_id), usage),
        fragmentUsage: usageMessage(row.id, usage),
        revisions: revisions.map((r) => ({ revision: String(r.revision), createdAt: timestampFromMs(Number(r.created_at)) })),
        tags: [],
      };
    },

    async createFragment(request, context) {
      const principal = callerOf(context);
      const organizationId = requireId("organization_id", request.organizationId);
      await requireRole(db, principal, organizationId, "operator", `organization ${organizationId}`);
      refusePublic(request.visibility);
      const row = await createFragment(db, { organizationId, id: newId(), name: request.name, config: (request.config ?? {}) as Config, editedBy: principalName(principal), now: cloud.clock.now() });
      return { fragment: fragmentMessage(row, await organizationName(organizationId), undefined) };
    },

    async updateFragment(request, context) {
      const principal = callerOf(context);
      const row = await reach(context, request.id, "operator");
      refusePublic(request.visibility, request.public);
      const { fragment, notices, usage } = await updateFragment(db, {
        organizationId: row.organization_id,
        id: row.id,
        name: request.name === "" ? row.name : request.name,
        config: (request.config ?? JSON.parse(row.config)) as Config,
        editedBy: principalName(principal),
        now: cloud.clock.now(),
        basedOn: request.lastKnownUpdate === undefined ? undefined : timestampMs(request.lastKnownUpdate),
      });
      for (const notice of notices) cloud.revisions.publish(notice);
      // Who uses it, as the change found them: every part of the organisation is not read again.
      return { fragment: fragmentMessage(fragment, await organizationName(row.organization_id), usage.parts === 0 ? undefined : usage) };
    },

    async deleteFragment(request, context) {
      const row = await reach(context, request.id, "operator");
      await deleteFragment(db, row.organization_id, row.id);
      return {};
    },
  };
}

/** The fragment `id` (the request's `field`), for a caller holding `needed` in its organisation; NotFound alike otherwise. */
export async function reachFragment(db: Kysely<Tables>, principal: Principal, field: string, id: string, needed: "viewer" | "operator"): Promise<FragmentsTable> {
  const fragment = await findFragment(db, requireId(field, id));
  await requireRole(db, principal, fragment?.organization_id, needed, `fragment ${id}`);
  return fragment!;
}

function refusePublic(visibility: FragmentVisibility | undefined, isPublic?: boolean): void {
  if (isPublic === true || visibility === FragmentVisibility.PUBLIC || visibility === FragmentVisibility.PUBLIC_UNLISTED) {
    throw new SvcError(Code.InvalidArgument, "svc-cloud keeps fragments private to their organisation: visibility must be private");
  }
}

function fragmentMessage(row: FragmentsTable, organizationName: string, usage: FragmentUsage | undefined): MessageInitShape<typeof FragmentSchema> {
  return {
    id: row.id,
    name: row.name,
    fragment: JSON.parse(row.config) as Config as MessageInitShape<typeof FragmentSchema>["fragment"],
    organizationOwner: row.organization_id,
    public: false,
    createdOn: timestampFromMs(Number(row.created_at)),
    organizationName,
    robotPartCount: usage?.parts ?? 0,
    organizationCount: usage === undefined ? 0 : 1,
    onlyUsedByOwner: true,
    visibility: FragmentVisibility.PRIVATE,
    lastUpdated: timestampFromMs(Number(row.updated_at)),
    revision: String(row.revision),
  };
}

function usageMessage(fragmentId: string, usage: FragmentUsage | undefined): MessageInitShape<typeof FragmentUsageSchema> {
  return { fragmentId, organizations: usage === undefined ? 0 : 1, machines: usage?.machines ?? 0, machinesInCurrentOrg: usage?.machines ?? 0 };
}

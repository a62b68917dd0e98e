// AppService's organisations and locations. Anyone with a role in an organisation reads it, its
// members and its locations; its owners invite people and make locations.
import type { ServiceImpl } from "@connectrpc/connect";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { Code, SvcError } from "../../../core/index.js";
import type { AppService } from "../../../proto/gen/app/v1/app_pb.js";
import { organizationsOf, requireRole } from "../auth/access.js";
import { principalName } from "../auth/principal.js";
import { callerOf } from "../server/caller.js";
import type { CloudContext } from "../server/cloud-context.js";
import { createLocation } from "../storage/fleet.js";
import { createInvitation, pendingInvitations } from "../storage/invitations-store.js";
import { listMembers } from "../storage/people-store.js";
import type { LocationsTable } from "../storage/tables.js";
import { requireLocationRole } from "./app-access.js";
import { authorizationOf, roleOfAuthorizations } from "./app-authorizations.js";
import { checkName, requireId } from "./app-names.js";
import { locationMessage, organizationMessage } from "./app-wire.js";
import { checkEmail } from "./users-checks.js";

export function appOrganizations(cloud: CloudContext): Partial<ServiceImpl<typeof AppService>> {
  const { db } = cloud.store;

  const robotCounts = async (locationIds: string[]) => {
    const counts = new Map<string, number>();
    if (locationIds.length === 0) return counts;
    const rows = await db
      .selectFrom("machines")
      .select(["location_id", (eb) => eb.fn.countAll<number>().as("count")])
      .where("location_id", "in", locationIds)
      .where("deleted_at", "is", null)
      .groupBy("location_id")
      .execute();
    for (const row of rows) counts.set(row.location_id, Number(row.count));
    return counts;
  };

  const withCounts = async (rows: LocationsTable[]) => {
    const counts = await robotCounts(rows.map((r) => r.id));
    return rows.map((row) => locationMessage(row, counts.get(row.id) ?? 0));
  };

  return {
    async listOrganizations(_request, context) {
      const principal = callerOf(context);
      if (principal.kind === "part-key") throw new SvcError(Code.PermissionDenied, "a part's key reaches its own part's device API only");
      const ids = (await organizationsOf(db, principal)).map((o) => o.organizationId);
      if (ids.length === 0) return { organizations: [] };
      const rows = await db.selectFrom("organizations").selectAll().where("id", "in", ids).orderBy("created_at").execute();
      return { organizations: rows.map(organizationMessage) };
    },

    async getOrganization(request, context) {
      const id = requireId("organization_id", request.organizationId);
      await requireRole(db, callerOf(context), id, "viewer", `organisation ${id}`);
      const row = await db.selectFrom("organizations").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
      return { organization: organizationMessage(row) };
    },

    async listOrganizationMembers(request, context) {
      const id = requireId("organization_id", request.organizationId);
      await requireRole(db, callerOf(context), id, "viewer", `organisation ${id}`);
      const members = await listMembers(db, id);
      const invites = await pendingInvitations(db, id, cloud.clock.now());
      return {
        organizationId: id,
        members: members.map((m) => ({ userId: m.userId, emails: [m.email], dateAdded: timestampFromMs(m.joinedAt) })),
        invites: invites.map((i) => ({
          organizationId: id,
          email: i.email,
          createdOn: timestampFromMs(Number(i.created_at)),
          authorizations: [authorizationOf(i.role, id, { id: i.email, type: "user" })],
        })),
      };
    },

    // svc-cloud sends no email: the invitation is made here and its token is answered by
    // svc.cloud.v1.CloudService.CreateInvitation, which replaces this pending invitation.
    async createOrganizationInvite(request, context) {
      const principal = callerOf(context);
      const id = requireId("organization_id", request.organizationId);
      await requireRole(db, principal, id, "owner", `organisation ${id}`);
      const email = checkEmail(request.email);
      const { role, organizationId } = roleOfAuthorizations(request.authorizations, "authorizations");
      if (organizationId !== id) throw new SvcError(Code.InvalidArgument, "authorizations[0].resource_id: must be the organisation the invitation is for");
      const { invitation } = await createInvitation(db, { organizationId: id, email, role, createdBy: principalName(principal), now: cloud.clock.now() });
      return {
        invite: { organizationId: id, email, createdOn: timestampFromMs(invitation.created_at), authorizations: [authorizationOf(role, id, { id: email, type: "user" })] },
      };
    },

    async listLocations(request, context) {
      const id = requireId("organization_id", request.organizationId);
      await requireRole(db, callerOf(context), id, "viewer", `organisation ${id}`);
      const rows = await db.selectFrom("locations").selectAll().where("organization_id", "=", id).orderBy("created_at").execute();
      return { locations: await withCounts(rows) };
    },

    async getLocation(request, context) {
      const location = await requireLocationRole(db, callerOf(context), request.locationId, "viewer");
      return { location: (await withCounts([location]))[0] };
    },

    async createLocation(request, context) {
      const id = requireId("organization_id", request.organizationId);
      await requireRole(db, callerOf(context), id, "owner", `organisation ${id}`);
      if (request.parentLocationId) throw new SvcError(Code.InvalidArgument, "parent_location_id: svc-cloud's locations do not nest");
      const name = checkName("name", request.name);
      const clash = await db.selectFrom("locations").select("id").where("organization_id", "=", id).where("name", "=", name).executeTakeFirst();
      if (clash !== undefined) throw new SvcError(Code.AlreadyExists, `a location named "${name}" already exists in organisation ${id}`);
      const now = cloud.clock.now();
      const locationId = await createLocation(db, { organizationId: id, name, now });
      return { location: locationMessage({ id: locationId, organization_id: id, name, created_at: now }, 0) };
    },
  };
}

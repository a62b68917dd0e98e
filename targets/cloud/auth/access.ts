// What a principal may reach. People hold a role in each organisation they belong to; an
// organisation key acts as that organisation's owner; a part key reaches its own part's device
// API and nothing else. Whatever lies in an organisation the caller does not belong to is
// answered as not found: a caller learns nothing of another organisation, not even that a thing
// exists. A deleted machine's parts are answered as not found too.
import type { Kysely } from "kysely";
import { Code, SvcError } from "../../../core/index.js";
import type { PartsTable, Role, Tables } from "../storage/tables.js";
import type { Principal } from "./principal.js";
import { roleAllows } from "../storage/roles.js";

/** The caller's role in an organisation, or undefined when it has none. */
export async function roleIn(db: Kysely<Tables>, principal: Principal, organizationId: string): Promise<Role | undefined> {
  if (principal.kind === "organization-key") return principal.organizationId === organizationId ? "owner" : undefined;
  if (principal.kind === "part-key") return undefined;
  const row = await db.selectFrom("memberships").select("role").where("organization_id", "=", organizationId).where("user_id", "=", principal.userId).executeTakeFirst();
  return row?.role;
}

/** The organisations the caller belongs to, with its role in each. */
export async function organizationsOf(db: Kysely<Tables>, principal: Principal): Promise<{ organizationId: string; role: Role }[]> {
  if (principal.kind === "organization-key") return [{ organizationId: principal.organizationId, role: "owner" }];
  if (principal.kind === "part-key") return [];
  const rows = await db.selectFrom("memberships").select(["organization_id", "role"]).where("user_id", "=", principal.userId).execute();
  return rows.map((r) => ({ organizationId: r.organization_id, role: r.role }));
}

/**
 * Throws unless the caller holds at least `needed` in the organisation: NotFound when it holds no
 * role there (or `what` does not exist), PermissionDenied when its role is too small.
 */
export async function requireRole(db: Kysely<Tables>, principal: Principal, organizationId: string | undefined, needed: Role, what: string): Promise<Role> {
  if (principal.kind === "part-key") throw new SvcError(Code.PermissionDenied, "a part's key reaches its own part's device API only");
  const role = organizationId === undefined ? undefined : await roleIn(db, principal, organizationId);
  if (role === undefined) throw new SvcError(Code.NotFound, `${what} not found`);
  if (!roleAllows(role, needed)) throw new SvcError(Code.PermissionDenied, `${what}: needs the ${needed} role (the caller is ${role})`);
  return role;
}

/** The part, for a user-side call needing `needed` in its organisation. */
export async function requirePartRole(db: Kysely<Tables>, principal: Principal, partId: string, needed: Role): Promise<PartsTable> {
  const part = await db.selectFrom("parts").selectAll().where("id", "=", partId).where("deleted_at", "is", null).executeTakeFirst();
  await requireRole(db, principal, part?.organization_id, needed, `part ${partId}`);
  return part!;
}

/**
 * The part, for a device-side call: its own key, or a person or organisation key that may operate
 * it. Another part's key is refused as if the part did not exist.
 */
export async function requireDevicePart(db: Kysely<Tables>, principal: Principal, partId: string): Promise<PartsTable> {
  const part = await db.selectFrom("parts").selectAll().where("id", "=", partId).where("deleted_at", "is", null).executeTakeFirst();
  return admitDevicePart(db, principal, partId, part);
}

/** The same check, for a part (or none) the caller has read already, with whatever came with it. */
export async function admitDevicePart<T extends { organization_id: string }>(db: Kysely<Tables>, principal: Principal, partId: string, part: T | undefined): Promise<T> {
  if (principal.kind === "part-key" && principal.partId !== partId) throw new SvcError(Code.NotFound, `part ${partId} not found`);
  if (part === undefined) throw new SvcError(Code.NotFound, `part ${partId} not found`);
  if (principal.kind !== "part-key") await requireRole(db, principal, part.organization_id, "operator", `part ${partId}`);
  return part;
}

// Invitations into an organisation. The token is random, shown once to whoever invited and kept
// only as a sha256; it admits one person once, before it expires. Inviting an email again
// replaces its pending invitation, so only the newest token works.
import type { Kysely } from "kysely";
import { Code, SvcError } from "../../../core/index.js";
import { roleAllows } from "./roles.js";
import { addMember, createUser } from "./fleet.js";
import { hashKey, newId, newKeySecret } from "./secrets.js";
import type { InvitationsTable, Role, Tables } from "./tables.js";
import { lockNamed, lockOrganization } from "./write-locks.js";

/** How long an invitation can be accepted. */
export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60_000;

export async function createInvitation(
  db: Kysely<Tables>,
  values: { organizationId: string; email: string; role: Role; createdBy: string; now: number },
): Promise<{ invitation: InvitationsTable; token: string }> {
  const token = `${newKeySecret()}${newKeySecret()}`;
  const invitation: InvitationsTable = {
    id: newId(),
    organization_id: values.organizationId,
    email: values.email,
    role: values.role,
    token_hash: hashKey(token),
    created_by: values.createdBy,
    created_at: values.now,
    expires_at: values.now + INVITATION_LIFETIME_MS,
    accepted_at: null,
  };
  await db.transaction().execute(async (tx) => {
    await lockOrganization(tx, { organizationId: values.organizationId });
    await tx.deleteFrom("invitations").where("organization_id", "=", values.organizationId).where("email", "=", values.email).where("accepted_at", "is", null).execute();
    await tx.insertInto("invitations").values(invitation).execute();
  });
  return { invitation, token };
}

/** The invitations of an organisation not yet accepted nor expired. */
export function pendingInvitations(db: Kysely<Tables>, organizationId: string, now: number): Promise<InvitationsTable[]> {
  return db
    .selectFrom("invitations")
    .selectAll()
    .where("organization_id", "=", organizationId)
    .where("accepted_at", "is", null)
    .where("expires_at", ">", now)
    .orderBy("created_at")
    .execute();
}

export interface Accepted {
  userId: string;
  email: string;
  organizationId: string;
  role: Role;
  joinedAt: number;
}

/**
 * Admits the invited person: a new user with `password` when the email has none, otherwise a
 * membership for the existing one (who keeps a higher role already held). The token is spent in
 * the same transaction, so it admits once even when accepted twice at the same moment.
 */
export function acceptInvitation(
  db: Kysely<Tables>,
  values: { token: string; password?: string; hashPassword: (password: string) => string; minPasswordLength: number; now: number },
): Promise<Accepted> {
  return db.transaction().execute(async (tx) => {
    await lockNamed(tx, "accounts");
    const invitation = await tx.selectFrom("invitations").selectAll().where("token_hash", "=", hashKey(values.token)).executeTakeFirst();
    if (invitation === undefined || invitation.accepted_at !== null || Number(invitation.expires_at) <= values.now) {
      throw new SvcError(Code.Unauthenticated, "this invitation is not valid: it is wrong, expired or already used");
    }
    const { organization_id: organizationId, email } = invitation;
    await lockOrganization(tx, { organizationId });
    const spent = await tx.updateTable("invitations").set({ accepted_at: values.now }).where("id", "=", invitation.id).where("accepted_at", "is", null).executeTakeFirst();
    if (Number(spent.numUpdatedRows) !== 1) throw new SvcError(Code.Unauthenticated, "this invitation is not valid: it is wrong, expired or already used");
    const user = await tx.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst();
    let userId = user?.id;
    if (userId === undefined) {
      const password = values.password;
      if (password === undefined || password.length < values.minPasswordLength) {
        throw new SvcError(Code.InvalidArgument, `password: ${email} has no account yet, so accepting needs a password of at least ${values.minPasswordLength} characters`);
      }
      userId = await createUser(tx, { email, passwordHash: values.hashPassword(password), now: values.now });
    }
    const held = await tx.selectFrom("memberships").select(["role", "created_at"]).where("organization_id", "=", organizationId).where("user_id", "=", userId).executeTakeFirst();
    if (held !== undefined && roleAllows(held.role, invitation.role)) return { userId, email, organizationId, role: held.role, joinedAt: Number(held.created_at) };
    await addMember(tx, { organizationId, userId, role: invitation.role, now: values.now });
    return { userId, email, organizationId, role: invitation.role, joinedAt: held === undefined ? values.now : Number(held.created_at) };
  });
}

// The people of an organisation: who belongs, with which role, and the changes an owner makes.
// An organisation always keeps an owner: the last one cannot be demoted, so nobody is ever left
// unable to manage its people and keys.
import type { Kysely } from "kysely";
import { Code, SvcError } from "../../../core/index.js";
import { addMember, createUser } from "./fleet.js";
import type { Role, Tables } from "./tables.js";
import { lockNamed, lockOrganization } from "./write-locks.js";

export interface Member {
  userId: string;
  email: string;
  role: Role;
  /** When the person joined the organisation (ms). */
  joinedAt: number;
}

export async function listMembers(db: Kysely<Tables>, organizationId: string): Promise<Member[]> {
  const rows = await db
    .selectFrom("memberships")
    .innerJoin("users", "users.id", "memberships.user_id")
    .select(["users.id as userId", "users.email as email", "memberships.role as role", "memberships.created_at as joinedAt"])
    .where("memberships.organization_id", "=", organizationId)
    .orderBy("memberships.created_at")
    .orderBy("users.email")
    .execute();
  return rows.map((r) => ({ ...r, joinedAt: Number(r.joinedAt) }));
}

export async function findMember(db: Kysely<Tables>, organizationId: string, userId: string): Promise<Member | undefined> {
  return (await listMembers(db, organizationId)).find((m) => m.userId === userId);
}

/** A new person, member of the organisation with `role`; AlreadyExists when the email is taken. */
export function addUser(db: Kysely<Tables>, values: { organizationId: string; email: string; passwordHash: string; role: Role; now: number }): Promise<Member> {
  return db.transaction().execute(async (tx) => {
    await lockNamed(tx, "accounts");
    const taken = await tx.selectFrom("users").select("id").where("email", "=", values.email).executeTakeFirst();
    if (taken !== undefined) throw new SvcError(Code.AlreadyExists, `a user with the email ${values.email} already exists; invite them with CreateInvitation instead`);
    const userId = await createUser(tx, { email: values.email, passwordHash: values.passwordHash, now: values.now });
    await addMember(tx, { organizationId: values.organizationId, userId, role: values.role, now: values.now });
    return { userId, email: values.email, role: values.role, joinedAt: values.now };
  });
}

/** Gives a member another role; the organisation's last owner keeps theirs. */
export function setRole(db: Kysely<Tables>, values: { organizationId: string; userId: string; role: Role }): Promise<Member> {
  return db.transaction().execute(async (tx) => {
    await lockOrganization(tx, { organizationId: values.organizationId });
    const member = await findMember(tx, values.organizationId, values.userId);
    if (member === undefined) throw new SvcError(Code.NotFound, `user ${values.userId} is not a member of organisation ${values.organizationId}`);
    if (member.role === "owner" && values.role !== "owner") {
      const owners = await tx
        .selectFrom("memberships")
        .select((eb) => eb.fn.countAll<number>().as("count"))
        .where("organization_id", "=", values.organizationId)
        .where("role", "=", "owner")
        .executeTakeFirstOrThrow();
      if (Number(owners.count) <= 1) throw new SvcError(Code.FailedPrecondition, `${member.email} is the organisation's last owner: make another member owner first`);
    }
    await tx.updateTable("memberships").set({ role: values.role }).where("organization_id", "=", values.organizationId).where("user_id", "=", values.userId).execute();
    return { ...member, role: values.role };
  });
}

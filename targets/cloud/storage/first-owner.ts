// The first person of a svc-cloud set up without one (`svc-cloud init` without --email, or a data
// folder never initialised): made the owner of its organisation, which is made first if there is
// none yet (named "svc", with a location "main", as init makes it). Only while nobody exists:
// checked in the same transaction that adds them, so two at once cannot both become the owner.
import type { Kysely } from "kysely";
import { Code, SvcError } from "../../../core/index.js";
import { addMember, createLocation, createOrganization, createUser } from "./fleet.js";
import { hashPassword } from "./secrets.js";
import type { Tables } from "./tables.js";
import { lockNamed } from "./write-locks.js";

/** Whether svc-cloud has nobody yet. */
export async function needsFirstOwner(db: Kysely<Tables>): Promise<boolean> {
  return (await db.selectFrom("users").select("id").limit(1).executeTakeFirst()) === undefined;
}

/** Makes the first owner; FailedPrecondition once anybody exists. Answers the new user's id. */
export function makeFirstOwner(db: Kysely<Tables>, values: { email: string; password: string; now: number }): Promise<string> {
  return db.transaction().execute(async (tx) => {
    await lockNamed(tx, "accounts");
    if (!(await needsFirstOwner(tx))) throw new SvcError(Code.FailedPrecondition, "svc-cloud is already set up: sign in, or ask an owner for an invitation");
    let organizationId = (await tx.selectFrom("organizations").select("id").orderBy("created_at").limit(1).executeTakeFirst())?.id;
    if (organizationId === undefined) {
      organizationId = await createOrganization(tx, { name: "svc", now: values.now });
      await createLocation(tx, { organizationId, name: "main", now: values.now });
    }
    const userId = await createUser(tx, { email: values.email.toLowerCase(), passwordHash: hashPassword(values.password), now: values.now });
    await addMember(tx, { organizationId, userId, role: "owner", now: values.now });
    return userId;
  });
}

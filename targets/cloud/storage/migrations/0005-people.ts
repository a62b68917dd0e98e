// People and the machines they remove: invitations into an organisation (the token kept only as a
// hash, so the store never holds what admits someone), and a removal time on machines and parts.
// A removed machine's rows stay, so its history and logs keep the part they belong to; every
// user-side read leaves removed rows out.
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("invitations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "text", (c) => c.notNull().references("organizations.id"))
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("token_hash", "text", (c) => c.notNull())
    .addColumn("created_by", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .addColumn("accepted_at", "bigint")
    .execute();
  await db.schema.createIndex("invitations_by_token").unique().on("invitations").column("token_hash").execute();
  await db.schema.createIndex("invitations_by_organization").on("invitations").columns(["organization_id", "email"]).execute();
  await db.schema.alterTable("machines").addColumn("deleted_at", "bigint").execute();
  await db.schema.alterTable("parts").addColumn("deleted_at", "bigint").execute();
}

// Fragments: named config pieces of an organisation, each a sequence of revisions like a part's
// config. Which parts use a fragment is read from the parts' configs themselves, so there is no
// second record of it to drift.
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("fragments")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "text", (c) => c.notNull().references("organizations.id"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("config", "text", (c) => c.notNull())
    .addColumn("revision", "integer", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("fragments_by_organization").on("fragments").columns(["organization_id", "name"]).execute();
  await db.schema
    .createTable("fragment_revisions")
    .addColumn("fragment_id", "text", (c) => c.notNull().references("fragments.id"))
    .addColumn("revision", "integer", (c) => c.notNull())
    .addColumn("config", "text", (c) => c.notNull())
    .addColumn("edited_by", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("fragment_revisions_pk", ["fragment_id", "revision"])
    .execute();
}

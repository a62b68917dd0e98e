// Provisioning keys: an API key of scope "provisioning" makes machines in one location (its
// scope_id) with one fragment attached, named here. No foreign key: a fragment a live key names
// is refused removal by the fragment's own check, and a revoked key's row keeps the id it had.
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("api_keys").addColumn("fragment_id", "text").execute();
  await db.schema.createIndex("api_keys_by_fragment").on("api_keys").column("fragment_id").execute();
}

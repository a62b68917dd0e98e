// People signed in from a browser: each session is a random token in an HttpOnly cookie, kept
// here only as its sha256, with when it was made, last used and when it ends at the latest.
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("web_sessions")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id"))
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("last_seen", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("web_sessions_by_user").on("web_sessions").column("user_id").execute();
  await db.schema.createIndex("web_sessions_by_expiry").on("web_sessions").column("expires_at").execute();
}

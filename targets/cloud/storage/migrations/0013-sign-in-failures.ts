// Failed sign-ins (auth/login-limiter.ts), kept in the store so that every replica on one database
// counts the same ones: a row per failure and per name it counts against (an entity or a peer
// address, each as a sha256). Read by name within the window, deleted by age.
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("sign_in_failures")
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sign_in_failures_by_name").on("sign_in_failures").columns(["name", "at"]).execute();
  await db.schema.createIndex("sign_in_failures_by_time").on("sign_in_failures").column("at").execute();
}

// The release index svc-cloud serves to agents: each imported artifact (one product, version and
// platform, its file in the data folder's `releases/` and its sha256) and the channels that point
// each product at one of its versions.
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("releases")
    .addColumn("product", "text", (c) => c.notNull())
    .addColumn("version", "text", (c) => c.notNull())
    .addColumn("platform", "text", (c) => c.notNull())
    .addColumn("file", "text", (c) => c.notNull().unique())
    .addColumn("sha256", "text", (c) => c.notNull())
    .addColumn("size", "bigint", (c) => c.notNull())
    .addColumn("added_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("releases_pk", ["product", "version", "platform"])
    .execute();
  await db.schema
    .createTable("release_channels")
    .addColumn("product", "text", (c) => c.notNull())
    .addColumn("channel", "text", (c) => c.notNull())
    .addColumn("version", "text", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("release_channels_pk", ["product", "channel"])
    .execute();
}

// What each part's machine last said of its config: the revision it runs, the newest it refused
// and why, and when it said so. One row a part, replaced at each report.
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("part_config_status")
    .addColumn("part_id", "text", (c) => c.primaryKey().references("parts.id"))
    .addColumn("running_revision", "text", (c) => c.notNull())
    .addColumn("refused_revision", "text", (c) => c.notNull())
    .addColumn("refused_reason", "text", (c) => c.notNull())
    .addColumn("reported_at", "bigint", (c) => c.notNull())
    .execute();
}

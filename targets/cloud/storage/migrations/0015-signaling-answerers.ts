// Which replica holds which machine's Answer stream, so a call reaching any replica of svc-cloud
// finds the machine wherever it answers (fleet/answerer-registry.ts). A row counts only while its
// replica says it is alive (`replicas.seen_at`): a replica killed outright leaves rows that no
// longer count, and they go the next time any replica cleans up.
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("replicas")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("seen_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("signaling_answerers")
    .addColumn("host", "text", (c) => c.primaryKey())
    .addColumn("part_id", "text", (c) => c.notNull())
    .addColumn("machine_id", "text", (c) => c.notNull())
    .addColumn("organization_id", "text", (c) => c.notNull())
    .addColumn("replica", "text", (c) => c.notNull())
    .addColumn("attached_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("signaling_answerers_by_part").on("signaling_answerers").column("part_id").execute();
  await db.schema.createIndex("signaling_answerers_by_replica").on("signaling_answerers").column("replica").execute();
}

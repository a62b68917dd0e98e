// What a part's machine last said of its config, one row a part, replaced at each report.
import type { Kysely } from "kysely";
import type { PartConfigStatusTable, Tables } from "./tables.js";

export async function recordConfigStatus(db: Kysely<Tables>, status: PartConfigStatusTable): Promise<void> {
  const { part_id: _part, ...rest } = status;
  await db
    .insertInto("part_config_status")
    .values(status)
    .onConflict((c) => c.column("part_id").doUpdateSet(rest))
    .execute();
}

export function configStatusOf(db: Kysely<Tables>, partId: string): Promise<PartConfigStatusTable | undefined> {
  return db.selectFrom("part_config_status").selectAll().where("part_id", "=", partId).executeTakeFirst();
}

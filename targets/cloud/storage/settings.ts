// svc-cloud's own settings, kept in the store so every command on the same data folder agrees.
import type { Kysely } from "kysely";
import type { Tables } from "./tables.js";

export async function readSetting(db: Kysely<Tables>, name: string): Promise<string | undefined> {
  return (await db.selectFrom("settings").select("value").where("name", "=", name).executeTakeFirst())?.value;
}

export async function writeSetting(db: Kysely<Tables>, name: string, value: string): Promise<void> {
  await db.insertInto("settings").values({ name, value }).onConflict((c) => c.column("name").doUpdateSet({ value })).execute();
}

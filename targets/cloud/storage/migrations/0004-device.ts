// The device side's state: svc-cloud's certificate authority, each part's certificate, and the
// files parts upload (their bytes live in the data folder, `files/<part>/<id>`; the rows say
// what they are).
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("certificate_authority")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("certificate_pem", "text", (c) => c.notNull())
    .addColumn("private_key_pem", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("part_certificates")
    .addColumn("part_id", "text", (c) => c.primaryKey().references("parts.id"))
    .addColumn("names", "text", (c) => c.notNull())
    .addColumn("certificate_pem", "text", (c) => c.notNull())
    .addColumn("private_key_pem", "text", (c) => c.notNull())
    .addColumn("not_after", "bigint", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("part_files")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("part_id", "text", (c) => c.notNull().references("parts.id"))
    .addColumn("file_name", "text", (c) => c.notNull())
    .addColumn("file_extension", "text", (c) => c.notNull())
    .addColumn("size", "bigint", (c) => c.notNull())
    .addColumn("sha256", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("part_files_by_part").on("part_files").columns(["part_id", "created_at"]).execute();
}

// The first schema: people, organisations, locations, machines and their parts, the revisions of
// each part's config, API keys, the keys that sign access tokens and svc-cloud's own settings. Every query the API makes
// has its index here or in a later migration.
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("users")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("organizations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("memberships")
    .addColumn("organization_id", "text", (c) => c.notNull().references("organizations.id"))
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id"))
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("memberships_pk", ["organization_id", "user_id"])
    .execute();
  await db.schema.createIndex("memberships_by_user").on("memberships").column("user_id").execute();
  await db.schema
    .createTable("locations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "text", (c) => c.notNull().references("organizations.id"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("locations_by_organization").on("locations").column("organization_id").execute();
  await db.schema
    .createTable("machines")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "text", (c) => c.notNull().references("organizations.id"))
    .addColumn("location_id", "text", (c) => c.notNull().references("locations.id"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("machines_by_location").on("machines").columns(["location_id", "name"]).execute();
  await db.schema.createIndex("machines_by_organization").on("machines").column("organization_id").execute();
  await db.schema
    .createTable("parts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("machine_id", "text", (c) => c.notNull().references("machines.id"))
    .addColumn("organization_id", "text", (c) => c.notNull().references("organizations.id"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("main_part", "integer", (c) => c.notNull())
    .addColumn("revision", "integer", (c) => c.notNull())
    .addColumn("restart_requested", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("last_access", "bigint")
    .addColumn("reported_versions", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("parts_by_machine").on("parts").column("machine_id").execute();
  await db.schema.createIndex("parts_by_organization").on("parts").column("organization_id").execute();
  await db.schema
    .createTable("part_revisions")
    .addColumn("part_id", "text", (c) => c.notNull().references("parts.id"))
    .addColumn("revision", "integer", (c) => c.notNull())
    .addColumn("config", "text", (c) => c.notNull())
    .addColumn("edited_by", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("part_revisions_pk", ["part_id", "revision"])
    .execute();
  await db.schema
    .createTable("api_keys")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "text", (c) => c.notNull().references("organizations.id"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("key_hash", "text", (c) => c.notNull())
    .addColumn("scope", "text", (c) => c.notNull())
    .addColumn("scope_id", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("revoked_at", "bigint")
    .execute();
  await db.schema.createIndex("api_keys_by_scope").on("api_keys").columns(["scope", "scope_id"]).execute();
  await db.schema.createIndex("api_keys_by_organization").on("api_keys").column("organization_id").execute();
  await db.schema
    .createTable("signing_keys")
    .addColumn("kid", "text", (c) => c.primaryKey())
    .addColumn("private_jwk", "text", (c) => c.notNull())
    .addColumn("public_jwk", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("retired_at", "bigint")
    .execute();
  await db.schema
    .createTable("settings")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .execute();
}

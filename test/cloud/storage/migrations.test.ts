// The same migrations bring an empty SQLite file and an empty PostgreSQL database to the newest
// schema; opening again changes nothing; several stores opening one PostgreSQL at once (replicas
// starting together) all succeed, the schema made once; and a SQLite store gets exactly the
// schema it got before PostgreSQL was supported, so existing stores open as they always did.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { makeLogPartitions } from "../../../targets/cloud/storage/log-partitions.js";
import { migrations } from "../../../targets/cloud/storage/migrations/index.js";
import { storeFile } from "../../../targets/cloud/storage/open-store.js";
import type { Store } from "../../../targets/cloud/storage/open-store.js";
import { storeBackends } from "../../helpers/store-backends.js";

const backends = storeBackends();
const TABLES = [
  "api_keys", "certificate_authority", "file_blobs", "fragment_revisions", "fragments", "invitations", "locations", "log_chunks", "machines",
  "memberships", "organizations", "part_certificates", "part_config_status", "part_files", "part_revisions", "parts",
  "release_channels", "releases", "replicas", "settings", "sign_in_failures", "signaling_answerers", "signing_keys", "users", "web_sessions",
];

async function applied(store: Store): Promise<string[]> {
  return (await store.db.selectFrom("kysely_migration" as never).select("name" as never).orderBy("name" as never).execute()).map((r) => (r as { name: string }).name);
}

async function tables(store: Store): Promise<string[]> {
  const found = await store.db.introspection.getTables();
  return found.map((t) => t.name).sort();
}

describe.each(backends)("migrations on $name", (backend) => {
  it("bring an empty store to the newest schema, every migration recorded once", async () => {
    const store = await backend.open();
    expect(await applied(store)).toEqual(Object.keys(migrations).sort());
    expect(await tables(store)).toEqual(TABLES);
  });

  it("change nothing when the store is opened again", async () => {
    const place = await backend.place();
    const first = await backend.open(place);
    await first.db.insertInto("settings").values({ name: "kept", value: "yes" }).execute();
    await first.close();
    const again = await backend.open(place);
    expect(await applied(again)).toEqual(Object.keys(migrations).sort());
    expect(await again.db.selectFrom("settings").select("value").where("name", "=", "kept").executeTakeFirst()).toEqual({ value: "yes" });
  });

  it("let several stores open one place at once, each finding the newest schema", async () => {
    const place = await backend.place();
    // Replicas starting together on PostgreSQL; on SQLite, processes on one file take turns (one
    // thread here cannot show them waiting on each other, so they open one after another).
    const stores = backend.name === "postgres" ? await Promise.all([1, 2, 3, 4].map(() => backend.open(place))) : [await backend.open(place), await backend.open(place)];
    for (const store of stores) expect(await applied(store)).toEqual(Object.keys(migrations).sort());
    expect(await tables(stores[0]!)).toEqual(TABLES);
  });

  it("give log chunk ids the store assigns, in order, and keep bodies as bytes", async () => {
    const store = await backend.open();
    const body = Uint8Array.from([1, 0, 255, 7]);
    const row = { part_id: "p", received: 1, first_time: 1, last_time: 1, levels: 2, entries: 1, body };
    // On PostgreSQL a row goes into its day's partition, made before it is needed (log-partitions.ts).
    await makeLogPartitions(store.db, row.received, 0);
    await store.db.insertInto("log_chunks").values(row).execute();
    await store.db.insertInto("log_chunks").values(row).execute();
    const rows = await store.db.selectFrom("log_chunks").select(["id", "body"]).orderBy("id").execute();
    expect(rows.map((r) => typeof r.id)).toEqual(["number", "number"]);
    expect(rows[1]!.id).toBeGreaterThan(rows[0]!.id);
    expect([...rows[0]!.body]).toEqual([1, 0, 255, 7]);
  });

  it("default a part's restart request to none", async () => {
    const store = await backend.open();
    await sql`insert into organizations (id, name, created_at) values ('o', 'o', 1)`.execute(store.db);
    await sql`insert into locations (id, organization_id, name, created_at) values ('l', 'o', 'l', 1)`.execute(store.db);
    await sql`insert into machines (id, organization_id, location_id, name, created_at) values ('m', 'o', 'l', 'm', 1)`.execute(store.db);
    await sql`insert into parts (id, machine_id, organization_id, name, main_part, revision, created_at, updated_at) values ('p', 'm', 'o', 'p', 1, 1, 1, 1)`.execute(store.db);
    expect(await store.db.selectFrom("parts").select(["restart_requested", "last_access", "deleted_at"]).executeTakeFirst()).toEqual({ restart_requested: 0, last_access: null, deleted_at: null });
  });
});

describe("a SQLite store", () => {
  it("gets the very schema it got before PostgreSQL was supported", async () => {
    const [sqlite] = backends;
    const place = await sqlite!.place();
    const store = await sqlite!.open(place);
    await store.close();
    const file = new Database(storeFile(place.dataDir), { readonly: true });
    try {
      const schema = file.prepare("select type, name, tbl_name, sql from sqlite_master where name not like 'sqlite_%' order by type, name").all();
      const names = file.prepare("select name from kysely_migration order by name").all();
      const before = JSON.parse(readFileSync(join(import.meta.dirname, "../../fixtures/cloud/sqlite-schema.json"), "utf8"));
      expect({ schema, migrations: names }).toEqual(before);
    } finally {
      file.close();
    }
  });
});

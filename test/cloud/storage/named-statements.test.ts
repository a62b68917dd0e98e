// Prepared queries on a real PostgreSQL run as statements the server keeps parsed and planned per
// connection (named, seen in pg_prepared_statements), and a statement whose table another replica
// changed under it (a migration adding a column to what it selects) still answers: run again
// unnamed, with the table as it is now.
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { preparedQuery } from "../../../targets/cloud/storage/prepared-query.js";
import { writeSetting } from "../../../targets/cloud/storage/settings.js";
import { storeBackends } from "../../helpers/store-backends.js";

const postgres = storeBackends().find((backend) => backend.name === "postgres")!;

describe("prepared queries on PostgreSQL", () => {
  it("are kept by the server, and answer still when another replica changes the table under them", async () => {
    const store = await postgres.open();
    const other = await postgres.peer(store);
    await writeSetting(store.db, "alpha", "1");
    const everything = preparedQuery((db, name) => db.selectFrom("settings").selectAll().where("name", "=", name));
    expect(await everything.first(store.db, "alpha")).toEqual({ name: "alpha", value: "1" });

    // Every connection of the pool that ran it holds it named.
    await store.db.connection().execute(async (db) => {
      await everything.first(db, "alpha");
      const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements where name like 'svc_%'`.execute(db);
      expect(rows.some((row) => row.statement.includes('from "settings"'))).toBe(true);
    });

    await sql`alter table settings add column note text`.execute(other.db);
    for (let i = 0; i < 12; i++) expect(await everything.first(store.db, "alpha")).toEqual({ name: "alpha", value: "1", note: null });
  });
});

// Reads kept between calls on PostgreSQL, across replicas (two stores on one real database, the
// second following the first's writes through the replicas' channel): a kept read is answered
// again while nobody writes its table, read afresh once another replica's write commits (the
// database's trigger tells), kept through writes to tables no kept read depends on; a read of a
// table no trigger watches is never kept, and none is answered again while the channel has lost
// its connection, until it listens again.
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { followForeignWrites } from "../../targets/cloud/fleet/foreign-writes.js";
import { openPostgresChannel } from "../../targets/cloud/fleet/postgres-channel.js";
import { keptReads } from "../../targets/cloud/storage/kept-reads.js";
import { HEARD_TABLES } from "../../targets/cloud/storage/open-postgres-store.js";
import { writeSetting } from "../../targets/cloud/storage/settings.js";
import { systemClock } from "../../targets/cloud/system-clock.js";
import { eventually } from "../helpers/eventually.js";
import { storeBackends } from "../helpers/store-backends.js";

const postgres = storeBackends().find((backend) => backend.name === "postgres")!;

describe("reads kept by a replica on PostgreSQL", () => {
  it("stand until another replica writes what they read, and are never kept while the replica cannot hear", async () => {
    const writer = await postgres.open();
    const reader = await postgres.peer(writer);
    const url = postgres.placeOf(writer).database!;
    const lines: string[] = [];
    const channel = await openPostgresChannel({ url, db: reader.db, clock: systemClock, log: (line) => lines.push(line) });
    const stop = followForeignWrites(reader, channel);
    let notices = 0;
    channel.on("tables", () => notices++);
    try {
      await writer.db.insertInto("users").values({ id: "u1", email: "first@example.com", password_hash: "x", created_at: 0 }).execute();
      await eventually(() => (notices === 1 ? true : undefined), "the insert's notice");
      const kept = keptReads<string | undefined>(["users"]);
      let loads = 0;
      const email = () => kept.read(reader, "u1", async (db) => (loads++, (await db.selectFrom("users").select("email").where("id", "=", "u1").executeTakeFirst())?.email));
      expect(await email()).toBe("first@example.com");
      expect(await email()).toBe("first@example.com");
      expect(loads).toBe(1);

      await writeSetting(writer.db, "colour", "blue");
      expect(await email()).toBe("first@example.com");
      expect(loads).toBe(1);

      // A table no trigger watches is read afresh every time, listening or not.
      const settings = keptReads<string | undefined>(["settings"]);
      let settingLoads = 0;
      const colour = () => settings.read(reader, "colour", async (db) => (settingLoads++, (await db.selectFrom("settings").select("value").where("name", "=", "colour").executeTakeFirst())?.value));
      expect([await colour(), await colour()]).toEqual(["blue", "blue"]);
      expect(settingLoads).toBe(2);

      await writer.db.updateTable("users").set({ email: "second@example.com" }).where("id", "=", "u1").execute();
      await eventually(async () => ((await email()) === "second@example.com" ? true : undefined), "the other replica's write heard");
      const settled = loads;
      expect(await email()).toBe("second@example.com");
      expect(loads).toBe(settled);

      // The listening connection is cut: nothing kept is answered until it listens again.
      await sql`select pg_terminate_backend(pid) from pg_stat_activity where query like 'listen svc_cloud%'`.execute(writer.db);
      await eventually(() => (channel.listening() ? undefined : true), "the channel to notice its loss");
      const before = loads;
      await email();
      await email();
      expect(loads).toBe(before + 2);
      await eventually(() => (channel.listening() ? true : undefined), "the channel to listen again", { timeoutMs: 30_000 });
      await email();
      const again = loads;
      await email();
      expect(loads).toBe(again);
    } finally {
      stop();
      await channel.close();
    }
  });

  it("are told of writes by triggers on every table a kept read depends on", async () => {
    const store = await postgres.open();
    const { rows } = await sql<{ table: string }>`select c.relname as table from pg_trigger t join pg_class c on c.oid = t.tgrelid where t.tgname like '%_kept_changed' order by 1`.execute(store.db);
    expect(rows.map((row) => row.table)).toEqual([...HEARD_TABLES].sort());
  });
});

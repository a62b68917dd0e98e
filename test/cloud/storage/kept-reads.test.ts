// What the store's readers rely on beside the queries, on SQLite and PostgreSQL alike: a read kept
// between calls is never answered stale, also when another process (another store on the same
// database) wrote; on SQLite it is answered again while nothing changed, on PostgreSQL (where no
// sign of another replica's writes reaches this one yet) it is read afresh every time. A query
// prepared once runs with new values on both, and numbers come back as numbers.
import { describe, expect, it } from "vitest";
import { keptReads } from "../../../targets/cloud/storage/kept-reads.js";
import { preparedQuery } from "../../../targets/cloud/storage/prepared-query.js";
import { storeTypes } from "../../../targets/cloud/storage/postgres-types.js";
import { readSetting, writeSetting } from "../../../targets/cloud/storage/settings.js";
import { SEED_TIME, seedOrganization } from "../../helpers/store-seed.js";
import { storeBackends } from "../../helpers/store-backends.js";

const backends = storeBackends();
const settingQuery = preparedQuery((db, name) => db.selectFrom("settings").select("value").where("name", "=", name));

describe.each(backends)("reads on $name", (backend) => {
  it("keep a read only while no process may have changed what it read", async () => {
    const store = await backend.open();
    const other = await backend.open(backend.placeOf(store));
    const kept = keptReads<string | undefined>(["settings"]);
    let loads = 0;
    const read = () => kept.read(store, "colour", (db) => (loads++, readSetting(db, "colour")));
    await writeSetting(store.db, "colour", "red");
    expect(await read()).toBe("red");
    expect(await read()).toBe("red");
    expect(loads).toBe(backend.name === "sqlite" ? 1 : 2);
    await writeSetting(other.db, "colour", "blue");
    expect(await read()).toBe("blue");
    await writeSetting(store.db, "colour", "green");
    expect(await read()).toBe("green");
    await store.db.transaction().execute(async (tx) => {
      await writeSetting(tx, "colour", "inside");
      expect(await kept.read({ db: tx, versions: store.versions }, "colour", (db) => readSetting(db, "colour"))).toBe("inside");
    });
    expect(await read()).toBe("inside");
  });

  it("run a prepared query again with new values", async () => {
    const store = await backend.open();
    await writeSetting(store.db, "a", "1");
    await writeSetting(store.db, "b", "2");
    expect(await settingQuery.first(store.db, "a")).toEqual({ value: "1" });
    expect(await settingQuery.first(store.db, "b")).toEqual({ value: "2" });
    expect(await settingQuery.all(store.db, "c")).toEqual([]);
  });

  it("give back times, counts and sums as numbers", async () => {
    const store = await backend.open();
    const org = await seedOrganization(store.db);
    await org.machine("rover");
    const row = await store.db
      .selectFrom("parts")
      .select((eb) => [eb.fn.countAll<number>().as("count"), eb.fn.sum<number>("revision").as("sum"), eb.fn.max("created_at").as("latest")])
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ count: 1, sum: 1, latest: SEED_TIME });
  });
});

describe("PostgreSQL's integers as the store reads them", () => {
  it("are numbers while they fit, BigInts past that, never rounded", () => {
    const int8 = storeTypes.getTypeParser(20, "text") as (text: string) => unknown;
    const numeric = storeTypes.getTypeParser(1700, "text") as (text: string) => unknown;
    expect(int8("1767225600000")).toBe(1767225600000);
    expect(int8("-9007199254740991")).toBe(-9007199254740991);
    expect(int8("9007199254740993")).toBe(9007199254740993n);
    expect(numeric("42")).toBe(42);
    expect(numeric("1.5")).toBe("1.5");
    expect(numeric("123456789012345678901234567890")).toBe("123456789012345678901234567890");
    expect((storeTypes.getTypeParser(23, "text") as (text: string) => unknown)("7")).toBe(7);
  });
});

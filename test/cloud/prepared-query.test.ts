// A query built once runs with each call's own values, bound, in the places its stand-ins had;
// a query that forgets one of its values is refused when it is first compiled.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../targets/cloud/storage/open-store.js";
import { preparedQuery } from "../../targets/cloud/storage/prepared-query.js";
import { writeSetting } from "../../targets/cloud/storage/settings.js";

let dir: string;
let store: Store;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "svc-prepared-"));
  store = await openStore(dir);
  await writeSetting(store.db, "alpha", "1");
  await writeSetting(store.db, "beta", "2");
  await writeSetting(store.db, "it's", "3");
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("a prepared query", () => {
  const byName = preparedQuery((db, name) => db.selectFrom("settings").select(["name", "value"]).where("name", "=", name));
  const between = preparedQuery((db, low, high) => db.selectFrom("settings").select("name").where("name", ">=", low).where("name", "<=", high).where("value", "!=", "x").orderBy("name"));

  it("runs with each call's values, as values, never as SQL", async () => {
    expect(await byName.first(store.db, "alpha")).toEqual({ name: "alpha", value: "1" });
    expect(await byName.first(store.db, "beta")).toEqual({ name: "beta", value: "2" });
    expect(await byName.first(store.db, "it's")).toEqual({ name: "it's", value: "3" });
    expect(await byName.first(store.db, "' or '1'='1")).toBeUndefined();
  });

  it("puts each value in its own place, beside the query's own constants", async () => {
    expect((await between.all(store.db, "alpha", "beta")).map((r) => r.name)).toEqual(["alpha", "beta"]);
    expect((await between.all(store.db, "b", "z")).map((r) => r.name)).toEqual(["beta", "it's"]);
  });

  it("runs inside a transaction on the transaction's connection", async () => {
    const seen = await store.db.transaction().execute(async (tx) => {
      await writeSetting(tx, "gamma", "4");
      return byName.first(tx, "gamma");
    });
    expect(seen).toEqual({ name: "gamma", value: "4" });
  });

  it("is refused when called with the wrong number of values, or when it leaves one out", async () => {
    await expect(byName.all(store.db)).rejects.toThrow("a prepared query takes 1 values, not 0");
    const forgetful = preparedQuery((db, _name) => db.selectFrom("settings").select("name"));
    await expect(forgetful.all(store.db, "alpha")).rejects.toThrow(/does not use its value 0/);
  });
});

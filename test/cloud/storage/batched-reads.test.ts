// Reads by id that many calls make at the same moment are made as few statements, on both
// databases: the first goes at once, those asked for while it is on its way go together after it,
// each caller gets its own row (or nothing), a caller never gets a row read before it asked, a failed read fails every caller that joined it, and a read inside a transaction is made
// alone, in it, seeing the transaction's own writes.
import type { Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import { batchedReads } from "../../../targets/cloud/storage/batched-reads.js";
import { writeSetting } from "../../../targets/cloud/storage/settings.js";
import type { Tables } from "../../../targets/cloud/storage/tables.js";
import { storeBackends } from "../../helpers/store-backends.js";

/** Settings read by name, noting each statement's names. */
function settingsByName() {
  const statements: string[][] = [];
  const reads = batchedReads(async (db: Kysely<Tables>, ids) => {
    statements.push([...ids]);
    const rows = await db.selectFrom("settings").selectAll().where("name", "in", ids).execute();
    return new Map(rows.map((row) => [row.name, row.value]));
  }, 3);
  return { reads, statements };
}

describe.each(storeBackends())("batched reads on $name", (backend) => {
  it("read what is asked for while a read is on its way together, each caller its own row", async () => {
    const store = await backend.open();
    for (const name of ["a", "b", "c", "d"]) await writeSetting(store.db, name, `value of ${name}`);
    const { reads, statements } = settingsByName();
    const asked = ["a", "b", "a", "missing", "c", "d"];
    expect(await Promise.all(asked.map((name) => reads.read(store.db, name)))).toEqual(["value of a", "value of b", "value of a", undefined, "value of c", "value of d"]);
    // The first alone, at once; the five names asked for meanwhile (a again: its read had gone) three to a statement.
    expect(statements).toEqual([["a"], ["b", "a", "missing"], ["c", "d"]]);
  });

  it("never answer from a read sent before the caller asked", async () => {
    const store = await backend.open();
    await writeSetting(store.db, "a", "old");
    const { reads, statements } = settingsByName();
    const early = reads.read(store.db, "a");
    expect(statements).toHaveLength(1);
    await writeSetting(store.db, "a", "new");
    expect(await reads.read(store.db, "a")).toBe("new");
    expect(await early).toMatch(/^(old|new)$/);
    expect(statements).toHaveLength(2);
  });

  it("fail every caller of a failed read, and read alone inside a transaction", async () => {
    const store = await backend.open();
    const failing = batchedReads<string>(async () => {
      throw new Error("the database went away");
    });
    const both = [failing.read(store.db, "a"), failing.read(store.db, "b")];
    for (const read of both) await expect(read).rejects.toThrow("the database went away");

    const { reads, statements } = settingsByName();
    const seen = await store.db.transaction().execute(async (tx) => {
      await writeSetting(tx, "inside", "written in the transaction");
      return reads.read(tx, "inside");
    });
    expect(seen).toBe("written in the transaction");
    expect(statements).toEqual([["inside"]]);
  });
});

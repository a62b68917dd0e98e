// The newest log entries kept for the control page: numbered in the order written, read after the
// last number seen, filtered by level, bounded in count, and saying how many a slow reader missed
// once the ring has moved past them.
import { describe, expect, it } from "vitest";
import type { LogLevel } from "../../../core/index.js";
import { createRecentLogs } from "../../../targets/linux/logging/index.js";

const entry = (message: string, level: LogLevel = "info") => ({ time: 0, level, logger: "svc.test", message, fields: {} });

describe("the recent logs", () => {
  it("gives each entry after the number asked, oldest first, and the number to ask next", () => {
    const recent = createRecentLogs(10);
    for (const m of ["a", "b", "c"]) recent.write(entry(m));
    expect(recent.since(0).entries.map((e) => [e.seq, e.message])).toEqual([[1, "a"], [2, "b"], [3, "c"]]);
    expect(recent.since(2)).toMatchObject({ entries: [{ seq: 3, message: "c" }], next: 3, missed: 0 });
    expect(recent.since(3)).toEqual({ entries: [], next: 3, missed: 0 });
  });

  it("keeps only the entries at the level asked or above, and still moves on past the others", () => {
    const recent = createRecentLogs(10);
    recent.write(entry("chatter", "debug"));
    recent.write(entry("careful", "warn"));
    recent.write(entry("note", "info"));
    expect(recent.since(0, "warn")).toMatchObject({ entries: [{ message: "careful" }], next: 3 });
    expect(recent.since(0, "error")).toMatchObject({ entries: [], next: 3 });
  });

  it("holds the newest entries only, says how many a reader missed, and gives at most the number asked", () => {
    const recent = createRecentLogs(3);
    for (let i = 1; i <= 5; i++) recent.write(entry(`m${i}`));
    expect(recent.since(0)).toMatchObject({ entries: [{ seq: 3 }, { seq: 4 }, { seq: 5 }], next: 5, missed: 2 });
    expect(recent.since(0, "debug", 2)).toMatchObject({ entries: [{ seq: 3 }, { seq: 4 }], next: 4, missed: 2 });
  });
});

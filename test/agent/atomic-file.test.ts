// The agent's atomic writes: readers see the old content or the new, and writes of the same file
// asked for at once in one process each land whole, leaving no temporary file behind.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { temporaryOwner, temporaryPath, writeFileAtomic } from "../../targets/linux/system/atomic-file.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "svc-atomic-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("atomic files", () => {
  it("writes the same file from several calls at once, each whole, with nothing left beside it", async () => {
    const file = join(dir, "state.json");
    const texts = Array.from({ length: 8 }, (_, i) => `${JSON.stringify({ writer: i, filler: "x".repeat(64 * 1024) })}\n`);
    await Promise.all(texts.map((text) => writeFileAtomic(file, text)));
    expect(texts).toContain(readFileSync(file, "utf8"));
    expect(readdirSync(dir)).toEqual(["state.json"]);
  });

  it("names temporary files uniquely, and tells which process made one", () => {
    const names = new Set(Array.from({ length: 100 }, () => temporaryPath(join(dir, "current"))));
    expect(names.size).toBe(100);
    for (const name of names) expect(temporaryOwner(name)).toBe(process.pid);
    // Names from before the sequence number was added still count as leftovers of their process.
    expect(temporaryOwner("1.5.0.tmp-4242")).toBe(4242);
    expect(temporaryOwner("1.5.0")).toBeUndefined();
    expect(temporaryOwner("current.tmp-x")).toBeUndefined();
  });
});

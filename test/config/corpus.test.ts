// The corpus of test/fixtures/configs: each file's parseMachineConfig result is byte-identical
// on Node and in XS (the MCU bundle), and matches what its name promises: valid-* has no issue,
// warn-* only warnings, invalid-* errors but still a configuration, broken-* none. The issues
// of every file are kept in a snapshot, so a change of wording shows up in review.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseMachineConfig } from "../../core/index.js";
import { CoreInXs } from "../../tools/xs/core-in-xs.js";

const dir = join(import.meta.dirname, "..", "fixtures", "configs");
const files = readdirSync(dir).filter((f) => f.endsWith(".json")).sort();

describe("the configuration corpus", () => {
  let xs: CoreInXs;
  beforeAll(async () => {
    xs = await CoreInXs.start();
  });
  afterAll(() => xs.close());

  it("holds at least 50 configurations of every kind", () => {
    expect(files.length).toBeGreaterThanOrEqual(50);
    for (const kind of ["valid-", "warn-", "invalid-", "broken-"]) {
      expect(files.some((f) => f.startsWith(kind))).toBe(true);
    }
    expect(files.every((f) => /^(valid|warn|invalid|broken)-/.test(f))).toBe(true);
  });

  for (const file of files) {
    it(file, async () => {
      const text = readFileSync(join(dir, file), "utf8");
      const result = parseMachineConfig(text);
      const errors = result.issues.filter((i) => i.severity === "error");
      if (file.startsWith("valid-")) expect(result.issues).toEqual([]);
      if (file.startsWith("warn-")) expect(result.issues.length > 0 && errors.length === 0).toBe(true);
      if (file.startsWith("invalid-")) expect(errors.length > 0 && result.config !== null).toBe(true);
      if (file.startsWith("broken-")) expect(result.config).toBeNull();
      expect(result.issues.map((i) => `${i.severity} ${i.path}: ${i.message}`)).toMatchSnapshot();

      const { json } = await xs.callRaw("parseMachineConfig", text);
      expect(json).toBe(JSON.stringify(result));
    });
  }
});

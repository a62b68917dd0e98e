// The committed validator is exactly what the generator makes from the schema today (no drift),
// and the generator's rewrites of ajv's output are exact or refuse.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generate, foldErrorPushes, requiresToImports } from "../../tools/gen/config-validator.gen.mjs";

const committed = join(import.meta.dirname, "..", "..", "core", "config", "gen");

describe("the generated configuration validator", () => {
  const out = mkdtempSync(join(tmpdir(), "svc-config-gen-"));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it("is reproduced byte for byte from core/config/schema.json", async () => {
    await generate(out);
    const files = readdirSync(out).sort();
    expect(files).toEqual(readdirSync(committed).sort());
    for (const file of files) {
      expect(readFileSync(join(out, file), "utf8"), file).toBe(readFileSync(join(committed, file), "utf8"));
    }
  });

  it("imports nothing, so the MCU bundle holds it as is", () => {
    const code = readFileSync(join(committed, "config-validator.js"), "utf8");
    expect(code).toMatch(/^\/\/ @generated/);
    expect(code).not.toMatch(/\bimport\b|\brequire\(/);
  });

  it("turns ajv's require() of runtime helpers into imports", () => {
    const code = 'const func2 = require("ajv/dist/runtime/ucs2length").default;\nfunction v() {}';
    expect(requiresToImports(code)).toBe('import func2 from "ajv/dist/runtime/ucs2length";\nfunction v() {}');
    expect(() => requiresToImports('const x = require("y");')).toThrow(/require/);
  });

  it("folds ajv's error pushes into one call and refuses any other shape", () => {
    const site = [
      'const err3 = {instancePath:instancePath+"/a/" + i0,schemaPath:"#/properties/a/pattern",keyword:"pattern",params:{pattern: "^[0-9]{1,5}$"}};',
      "if(vErrors === null){",
      "vErrors = [err3];",
      "}",
      "else {",
      "vErrors.push(err3);",
      "}",
      "errors++;",
    ].join("\n");
    const folded = foldErrorPushes(site);
    expect(folded).toContain('vErrors = addError(vErrors, instancePath+"/a/" + i0, "pattern", {});\nerrors++;');
    expect(foldErrorPushes(site.replace('"pattern",params:{pattern: "^[0-9]{1,5}$"}', '"type",params:{type: "string"}')))
      .toContain('"type", {type: "string"});');
    expect(() => foldErrorPushes(site.replace("vErrors.push(err3);", "vErrors.push(err3, 1);"))).toThrow(/changed shape/);
  });
});

// -dump-resources writes every registered model with its attribute schema, sorted, as pretty
// JSON; a path whose folder is missing is a clear error and writes nothing.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createModelRegistry, type Resource } from "../../../core/index.js";
import { DiagnosticsError, dumpResources } from "../../../targets/linux/server/diagnostics/index.js";

const dir = mkdtempSync(join(tmpdir(), "svc-dump-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function registry() {
  const models = createModelRegistry();
  const build = async () => ({}) as Resource;
  const pinSchema = { type: "object", properties: { pin: { type: "integer", minimum: 0 } }, required: ["pin"] };
  models.register({ api: "rdk:component:sensor", model: "rdk:builtin:fake", build, attributesSchema: { type: "object" } });
  models.register({ api: "rdk:component:motor", model: "rdk:builtin:gpio", build, attributesSchema: pinSchema });
  models.register({ api: "rdk:component:motor", model: "rdk:builtin:fake", build });
  models.register({ api: "acme:component:arm", model: "acme:demo:arm", build });
  return models;
}

describe("-dump-resources", () => {
  it("writes every API and model, sorted, with its attribute schema, as pretty JSON", () => {
    const path = join(dir, "resources.json");
    expect(dumpResources(registry(), path)).toBe(4);
    const text = readFileSync(path, "utf8");
    expect(text).toContain('\n  {\n    "api": "acme:component:arm",');
    expect(text.endsWith("}\n]\n")).toBe(true);
    expect(JSON.parse(text)).toEqual([
      { api: "acme:component:arm", model: "acme:demo:arm", attributes_schema: null },
      { api: "rdk:component:motor", model: "rdk:builtin:fake", attributes_schema: null },
      {
        api: "rdk:component:motor",
        model: "rdk:builtin:gpio",
        attributes_schema: { type: "object", properties: { pin: { type: "integer", minimum: 0 } }, required: ["pin"] },
      },
      { api: "rdk:component:sensor", model: "rdk:builtin:fake", attributes_schema: { type: "object" } },
    ]);
  });

  it("refuses a path whose directory does not exist, naming it", () => {
    const path = join(dir, "no-such-dir", "resources.json");
    expect(() => dumpResources(registry(), path)).toThrow(DiagnosticsError);
    expect(() => dumpResources(registry(), path)).toThrow(
      `-dump-resources ${JSON.stringify(path)}: the directory ${join(dir, "no-such-dir")} does not exist`,
    );
    expect(existsSync(join(dir, "no-such-dir"))).toBe(false);
  });

  it("refuses a path under a file, and a path that is a directory", () => {
    writeFileSync(join(dir, "plain"), "");
    expect(() => dumpResources(registry(), join(dir, "plain", "x.json"))).toThrow("is not a directory");
    expect(() => dumpResources(registry(), dir)).toThrow("cannot write");
  });
});

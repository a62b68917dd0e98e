// The schema checker against ajv, the reference implementation of JSON Schema: on the corpus and
// on randomly damaged configurations both find the same problems, in the same order, at the same
// places, and fill in the same defaults. The schema itself uses only what the checker reads.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv from "ajv";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkSchema, type SchemaError, type SchemaNode } from "../../core/config/schema-check.js";
import { pointerPath } from "../../core/config/data-path.js";
import { mutate, mutation, valid } from "./mutation-arbitraries.js";
import type { Json } from "./helpers.js";

const schema = JSON.parse(readFileSync(join(import.meta.dirname, "../../core/config/schema.json"), "utf8")) as SchemaNode;
const ajv = new Ajv({ allErrors: true, useDefaults: true, strict: true, allowUnionTypes: true, keywords: ["x-shape"] });
const reference = ajv.compile(schema);

/** ajv's errors in the checker's terms: the key's own path for required and unknown keys. */
function ajvErrors(data: unknown): SchemaError[] {
  reference(data);
  return (reference.errors ?? []).map((e) => {
    const path = pointerPath(data, e.instancePath);
    if (e.keyword === "required") path.push(String(e.params.missingProperty));
    if (e.keyword === "additionalProperties") path.push(String(e.params.additionalProperty));
    const error: SchemaError = { path, keyword: e.keyword as SchemaError["keyword"] };
    if (e.keyword === "type") error.type = e.params.type as string;
    return error;
  });
}

function expectSameAsAjv(input: Json): void {
  const ours = structuredClone(input);
  const theirs = structuredClone(input);
  expect(checkSchema(schema, ours)).toEqual(ajvErrors(theirs));
  expect(ours).toEqual(theirs);
}

const withProcesses: Json = {
  ...(valid as Record<string, Json>),
  processes: [{ id: "tunnel", name: "/usr/bin/ssh", args: ["-N"], env: { A: "1" }, stop_signal: "SIGINT" }],
};

describe("the schema checker", () => {
  it("agrees with ajv on every configuration of the corpus", () => {
    const dir = join(import.meta.dirname, "..", "fixtures", "configs");
    const files = readdirSync(dir).filter((f) => f.endsWith(".json"));
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) {
      let input: Json;
      try {
        input = JSON.parse(readFileSync(join(dir, file), "utf8")) as Json;
      } catch {
        continue; // a corpus file that is not JSON at all never reaches the schema
      }
      expectSameAsAjv(input);
    }
  });

  it("agrees with ajv on randomly damaged configurations: problems, their order and the defaults", () => {
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 6 }), (mutations) => {
        expectSameAsAjv(mutate(withProcesses, mutations));
      }),
      { numRuns: 600 },
    );
  });

  it("fills in a fresh copy of each default, so two configurations never share one", () => {
    const a: Record<string, unknown> = {};
    const b: Record<string, unknown> = {};
    expect(checkSchema(schema, a)).toEqual([]);
    expect(checkSchema(schema, b)).toEqual([]);
    expect(a).toEqual(b);
    expect(a.components).not.toBe(b.components);
    expect(a.agent).not.toBe(b.agent);
  });

  it("reports a wrong type once, at the value, with the types asked for", () => {
    const data = { network: { max_message_bytes: 1.5, bind_address: 7 }, agent: { network_configuration: { wifi_power_save: "no" } } };
    expect(checkSchema(schema, data)).toEqual([
      { path: ["network", "bind_address"], keyword: "type", type: "string" },
      { path: ["network", "max_message_bytes"], keyword: "type", type: "integer" },
      { path: ["network", "max_message_bytes"], keyword: "minimum" },
      { path: ["agent", "network_configuration", "wifi_power_save"], keyword: "type", type: ["boolean", "null"] },
    ]);
  });

  it("is written for a schema that uses only the keywords it reads, with a shape for every checked value", () => {
    const known = new Set([
      "$schema", "$id", "$ref", "title", "description", "definitions", "type", "properties", "required",
      "additionalProperties", "items", "enum", "pattern", "minimum", "maximum", "default", "x-shape",
    ]);
    const problems: string[] = [];
    const walk = (node: Record<string, unknown>, at: string): void => {
      for (const [key, value] of Object.entries(node)) {
        if (!known.has(key)) problems.push(`${at}: ${key}`);
        const children = key === "properties" || key === "definitions" ? Object.entries(value as object)
          : key === "items" || (key === "additionalProperties" && typeof value === "object") ? [["", value]] : [];
        for (const [name, child] of children) walk(child as Record<string, unknown>, `${at}/${key}${name ? `/${name}` : ""}`);
      }
      const checked = ["enum", "pattern", "minimum", "maximum"].some((k) => k in node);
      if (checked && typeof node["x-shape"] !== "string") problems.push(`${at}: no x-shape`);
    };
    walk(schema as Record<string, unknown>, "#");
    expect(problems).toEqual([]);
  });
});

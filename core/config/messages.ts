// The words of configuration issues: what a value must be (the schema's `x-shape`), and what
// was found instead. Secrets are never echoed back.
import { configSchema } from "./config-schema.js";
import { resolveRef, type SchemaError, type SchemaNode } from "./schema-check.js";
import { hasOwn, type DataPath } from "./data-path.js";

/** What the schema says a value at `path` must look like, if it says. */
export function shapeAt(path: DataPath): string | undefined {
  let node: SchemaNode | undefined = configSchema;
  for (const segment of path) {
    node = node && followRefs(node);
    if (node === undefined || node["x-shape"] !== undefined) return undefined;
    if (typeof segment === "number") node = node.items;
    else if (node.properties && hasOwn(node.properties, segment)) node = node.properties[segment];
    else node = typeof node.additionalProperties === "object" ? node.additionalProperties : undefined;
  }
  return node && followRefs(node)["x-shape"];
}

/** A node with its `$ref`s followed, the referring node's own words (its x-shape) winning. */
function followRefs(node: SchemaNode): SchemaNode {
  while (node.$ref !== undefined) {
    const { $ref, ...own } = node;
    node = { ...resolveRef(configSchema, $ref), ...own };
  }
  return node;
}

// Values whose text must not appear in messages or logs.
const secretKeys = new Set(["psk", "secret", "hotspot_password", "payload"]);

export function isSecretPath(path: DataPath): boolean {
  const last = path[path.length - 1];
  if (typeof last === "string" && secretKeys.has(last)) return true;
  if (path.length === 3 && path[0] === "cloud" && path[1] === "api_key" && path[2] === "key") return true;
  // auth.handlers[i].config.<key id>, .key, .keys[j]
  return path.length >= 5 && path[0] === "auth" && path[1] === "handlers" && path[3] === "config";
}

/** A short description of a found value: `"abc"`, `12`, `null`, `an array`, `an object`. */
export function describeValue(value: unknown, secret = false): string {
  if (typeof value === "string") {
    if (secret) return `a string of ${value.length} characters`;
    return JSON.stringify(value.length > 48 ? `${value.slice(0, 45)}...` : value);
  }
  if (secret) return `a ${value === null ? "null" : Array.isArray(value) ? "list" : typeof value} value`;
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  if (typeof value === "object") return "an object";
  return String(value);
}

const typeWords: Record<string, string> = {
  boolean: "true or false",
  string: "a string",
  integer: "a whole number",
  number: "a number",
  object: "an object",
  array: "an array",
  null: "null",
};

function expectedType(type: unknown): string {
  const names = (Array.isArray(type) ? type : [type]).map((t) => typeWords[String(t)] ?? String(t));
  return names.join(" or ");
}

/** The message for one schema error at `path` (for `required`: the missing key's path); `strict`: an unknown key is an error there. */
export function schemaErrorMessage(error: SchemaError, path: DataPath, found: unknown, strict = false): string {
  const shape = shapeAt(path);
  switch (error.keyword) {
    case "required":
      return shape ? `is required: ${shape}` : "is required";
    case "additionalProperties":
      // In a strict section an unknown key is an error, and nothing is ignored.
      return `unknown key ${JSON.stringify(String(path[path.length - 1]))}${strict ? "" : " (ignored)"}`;
    default: {
      const expected = shape ?? (error.keyword === "type" ? expectedType(error.type) : "valid");
      return `must be ${expected} (found ${describeValue(found, isSecretPath(path))})`;
    }
  }
}

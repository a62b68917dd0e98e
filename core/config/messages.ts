// The words of configuration issues: what a value must be (from the schema's `x-shape`, via the
// generated `shapes`), and what was found instead. Secrets are never echoed back.
import { shapes, type ShapeTree, type ValidationError } from "./gen/config-validator.js";
import { hasOwn, type DataPath } from "./data-path.js";

/** What the schema says a value at `path` must look like, if it says. */
export function shapeAt(path: DataPath): string | undefined {
  let node: string | ShapeTree | undefined = shapes;
  for (const segment of path) {
    if (node === undefined || typeof node === "string") return undefined;
    const tree: ShapeTree = node;
    const key = typeof segment === "number" ? "[]" : hasOwn(tree, segment) ? segment : "*";
    node = hasOwn(tree, key) ? tree[key] : undefined;
  }
  return typeof node === "string" ? node : undefined;
}

// Values whose text must not appear in messages or logs.
const secretKeys = new Set(["psk", "secret", "hotspot_password"]);

export function isSecretPath(path: DataPath): boolean {
  const last = path[path.length - 1];
  if (typeof last === "string" && secretKeys.has(last)) return true;
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

/** The message for one ajv error at `path` (for `required`: the missing key's path); `strict`: an unknown key is an error there. */
export function schemaErrorMessage(error: ValidationError, path: DataPath, found: unknown, strict = false): string {
  const shape = shapeAt(path);
  switch (error.keyword) {
    case "required":
      return shape ? `is required: ${shape}` : "is required";
    case "additionalProperties":
      // In a strict section an unknown key is an error, and nothing is ignored.
      return `unknown key ${JSON.stringify(String(error.params.additionalProperty))}${strict ? "" : " (ignored)"}`;
    default: {
      const expected = shape ?? (error.keyword === "type" ? expectedType(error.params.type) : "valid");
      return `must be ${expected} (found ${describeValue(found, isSecretPath(path))})`;
    }
  }
}

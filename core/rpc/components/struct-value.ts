// What a resource returns (readings, DoCommand results) as the wire's google.protobuf.Value and
// Struct. Resources hand back plain JavaScript values; the rules are JSON's (undefined members
// are left out, `toJSON` is honoured, a bigint becomes a number), and anything that cannot be
// sent (a function, a symbol, a cycle) is an Internal error naming where it was.
import type { JsonObject, JsonValue, MessageInitShape } from "@bufbuild/protobuf";
import type { NullValue, ValueSchema } from "@bufbuild/protobuf/wkt";
import { Code, SvcError } from "../../errors/index.js";

export type ValueInit = MessageInitShape<typeof ValueSchema>;

// Deeper than any reading a device reports; past it the value is taken for a cycle.
const MAX_DEPTH = 64;
const NULL_VALUE = 0 as NullValue;

function unsendable(path: string, why: string): SvcError {
  return new SvcError(Code.Internal, `${path}: ${why} cannot be sent`);
}

/** Sets a member, "__proto__" included (assigning that one would change the prototype instead). */
function put<T>(target: { [key: string]: T }, key: string, value: T): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

function hasToJson(value: object): value is { toJSON(): unknown } {
  return typeof (value as { toJSON?: unknown }).toJSON === "function";
}

/** `value` as a google.protobuf.Value; `path` names it in errors (`readings.temp`). */
export function toValue(value: unknown, path: string, depth = 0): ValueInit {
  switch (typeof value) {
    case "number":
      return { kind: { case: "numberValue", value } };
    case "string":
      return { kind: { case: "stringValue", value } };
    case "boolean":
      return { kind: { case: "boolValue", value } };
    case "bigint":
      return { kind: { case: "numberValue", value: Number(value) } };
    case "undefined":
      return { kind: { case: "nullValue", value: NULL_VALUE } };
    case "object": {
      if (value === null) return { kind: { case: "nullValue", value: NULL_VALUE } };
      if (depth >= MAX_DEPTH) throw unsendable(path, "a value nested this deeply (a cycle?)");
      if (Array.isArray(value)) {
        const values: ValueInit[] = [];
        for (let i = 0; i < value.length; i++) values.push(toValue(value[i], `${path}[${i}]`, depth + 1));
        return { kind: { case: "listValue", value: { values } } };
      }
      if (hasToJson(value)) return toValue(value.toJSON(), path, depth + 1);
      return { kind: { case: "structValue", value: { fields: toValueMap(value as Record<string, unknown>, path, depth + 1) } } };
    }
    default:
      throw unsendable(path, `a ${typeof value}`);
  }
}

/** Each member of `record` as a Value (the shape of GetReadingsResponse.readings). */
export function toValueMap(record: Record<string, unknown>, path: string, depth = 0): { [key: string]: ValueInit } {
  const out: { [key: string]: ValueInit } = {};
  for (const key of Object.keys(record)) {
    const member = record[key];
    if (member !== undefined && typeof member !== "function" && typeof member !== "symbol") {
      put(out, key, toValue(member, `${path}.${key}`, depth));
    }
  }
  return out;
}

/** `value` as JSON, for google.protobuf.Struct fields. */
export function toJsonValue(value: unknown, path: string, depth = 0): JsonValue {
  switch (typeof value) {
    case "number":
    case "string":
    case "boolean":
      return value;
    case "bigint":
      return Number(value);
    case "undefined":
      return null;
    case "object": {
      if (value === null) return null;
      if (depth >= MAX_DEPTH) throw unsendable(path, "a value nested this deeply (a cycle?)");
      if (Array.isArray(value)) {
        const out: JsonValue[] = [];
        for (let i = 0; i < value.length; i++) out.push(toJsonValue(value[i], `${path}[${i}]`, depth + 1));
        return out;
      }
      if (hasToJson(value)) return toJsonValue(value.toJSON(), path, depth + 1);
      return toJsonObject(value as Record<string, unknown>, path, depth + 1);
    }
    default:
      throw unsendable(path, `a ${typeof value}`);
  }
}

/** `record` as a google.protobuf.Struct's JSON object; undefined members are left out. */
export function toJsonObject(record: Record<string, unknown>, path: string, depth = 0): JsonObject {
  const out: JsonObject = {};
  for (const key of Object.keys(record)) {
    const member = record[key];
    if (member !== undefined && typeof member !== "function" && typeof member !== "symbol") {
      put(out, key, toJsonValue(member, `${path}.${key}`, depth));
    }
  }
  return out;
}

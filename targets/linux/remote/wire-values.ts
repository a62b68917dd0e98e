// Plain values to and from the wire for remote calls: a method's `extra` and a DoCommand's
// command become google.protobuf.Struct (JSON's rules, as the serving side applies to what it
// returns: undefined members are left out, `toJSON` is honoured, a bigint becomes a number), a
// reading's google.protobuf.Value becomes the plain value the serving resource returned, and
// numbers the wire narrows (float, int32, uint32, uint64) are checked or restored here.
import type { JsonObject } from "@bufbuild/protobuf";
import type { Value } from "@bufbuild/protobuf/wkt";
import { Code, SvcError, toJsonObject, type CommandPayload } from "../../../core/index.js";

/** Sets a member, "__proto__" included (assigning that one would change the prototype instead). */
function put<T>(target: { [key: string]: T }, key: string, value: T): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** `payload` as a google.protobuf.Struct; undefined stays absent. `path` names it in errors ("extra"). */
export function toWireStruct(payload: CommandPayload | undefined, path: string): JsonObject | undefined {
  if (payload === undefined || payload === null) return undefined;
  if (typeof payload !== "object" || Array.isArray(payload)) {
    throw new SvcError(Code.InvalidArgument, `${path}: must be a map, got a ${Array.isArray(payload) ? "list" : typeof payload}`);
  }
  try {
    return toJsonObject(payload, path);
  } catch (thrown) {
    // What cannot be sent is the caller's argument here, not the serving side's answer.
    if (thrown instanceof SvcError) throw new SvcError(Code.InvalidArgument, thrown.message, thrown);
    throw thrown;
  }
}

/** A google.protobuf.Value as the plain value it stands for. */
export function fromWireValue(value: Value): unknown {
  const kind = value.kind;
  switch (kind.case) {
    case "numberValue":
    case "stringValue":
    case "boolValue":
      return kind.value;
    case "structValue":
      return fromWireValueMap(kind.value.fields);
    case "listValue":
      return kind.value.values.map(fromWireValue);
    default:
      // nullValue, and a Value with no kind set.
      return null;
  }
}

/** A map of Values (readings, a Struct's fields) as a plain record. */
export function fromWireValueMap(fields: { [key: string]: Value }): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(fields)) put(out, key, fromWireValue(fields[key]!));
  return out;
}

/**
 * A float field's value as the shortest decimal that is the same 32-bit float, so 0.9 sent as a
 * float reads back as 0.9 rather than 0.8999999761581421.
 */
export function fromFloat32(value: number): number {
  if (!isFinite(value) || value === 0) return value;
  for (let digits = 1; digits <= 9; digits++) {
    const shorter = Number(value.toPrecision(digits));
    if (Math.fround(shorter) === value) return shorter;
  }
  return value;
}

/** A whole number within the range of the wire's integer field, or an invalid_argument error naming it. */
export function wireInteger(value: number, field: string, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new SvcError(Code.InvalidArgument, `${field} must be a whole number from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}

export const INT32_MIN = -2147483648;
export const INT32_MAX = 2147483647;
export const UINT32_MAX = 4294967295;

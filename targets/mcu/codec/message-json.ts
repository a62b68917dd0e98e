// A decoded message as JSON close to protobuf's JSON mapping, for listing a call's request in
// GetOperations: fields at their zero value are left out, 64-bit integers are strings, bytes are
// base64, Struct fields are their JSON. Enums stay numbers and Timestamp or Duration stay
// {seconds, nanos}: the tables carry no enum names, and requests rarely hold either.
import type { MessageSpecs } from "./message-spec.js";
import { LIST, MAP, PACKED, T, type FieldSpec } from "./wire-tables.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

function base64(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += BASE64.charAt(n >> 18) + BASE64.charAt((n >> 12) & 63);
    out += i + 1 < bytes.length ? BASE64.charAt((n >> 6) & 63) : "=";
    out += i + 2 < bytes.length ? BASE64.charAt(n & 63) : "=";
  }
  return out;
}

function isSet(f: FieldSpec, value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (f.type === T.message || f.type === T.json || f.explicit) return true;
  if (typeof value === "bigint") return value !== BigInt(0);
  if (value instanceof Uint8Array) return value.length > 0;
  return value !== 0 && value !== "" && value !== false;
}

function valueJson(specs: MessageSpecs, f: FieldSpec, value: unknown): Json {
  if (f.type === T.message) return messageJson(specs, f.message, value as Record<string, unknown>);
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Uint8Array) return base64(value);
  return value as Json;
}

export function messageJson(specs: MessageSpecs, index: number, shape: Record<string, unknown>): { [key: string]: Json } {
  const out: { [key: string]: Json } = {};
  for (const f of specs.spec(index).fields) {
    if (f.oneof !== undefined) {
      const group = shape[f.oneof] as { case?: string; value?: unknown } | undefined;
      if (group && group.case === f.name) out[f.name] = valueJson(specs, f, group.value);
      continue;
    }
    const value = shape[f.name];
    if (f.shape === LIST || f.shape === PACKED) {
      const list = value as unknown[];
      if (list.length > 0) out[f.name] = list.map((item) => valueJson(specs, f, item));
    } else if (f.shape === MAP) {
      const map = value as Record<string, unknown>;
      const keys = Object.keys(map);
      if (keys.length > 0) {
        const entries: { [key: string]: Json } = {};
        for (const key of keys) entries[key] = valueJson(specs, f, map[key]);
        out[f.name] = entries;
      }
    } else if (isSet(f, value)) {
      out[f.name] = valueJson(specs, f, value);
    }
  }
  return out;
}

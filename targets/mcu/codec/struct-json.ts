// google.protobuf.Struct straight from and to JSON, as protobuf-es holds Struct fields (a
// JsonObject): members in key order, null as NULL_VALUE, numbers as doubles, arrays as
// ListValue, objects as nested Structs. No intermediate Value objects are built either way.
import type { WireReader } from "./wire-reader.js";
import { WIRE_DELIMITED, WIRE_FIXED64, WIRE_VARINT, type WireWriter } from "./wire-writer.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The fields of a Struct (map<string, Value> fields = 1) for the JSON object `json`. */
export function writeStructJson(w: WireWriter, json: unknown): void {
  if (!isObject(json)) return;
  for (const key of Object.keys(json)) {
    w.tag(1, WIRE_DELIMITED);
    w.fork();
    w.tag(1, WIRE_DELIMITED);
    w.string(key);
    w.tag(2, WIRE_DELIMITED);
    w.fork();
    writeValueJson(w, json[key]);
    w.join();
    w.join();
  }
}

/** The fields of a google.protobuf.Value for `json`; anything else (undefined) is a Value with no kind. */
export function writeValueJson(w: WireWriter, json: unknown): void {
  switch (typeof json) {
    case "number":
      w.tag(2, WIRE_FIXED64);
      w.double(json);
      return;
    case "string":
      w.tag(3, WIRE_DELIMITED);
      w.string(json);
      return;
    case "boolean":
      w.tag(4, WIRE_VARINT);
      w.bool(json);
      return;
    case "object":
      if (json === null) {
        w.tag(1, WIRE_VARINT);
        w.int32(0);
      } else if (Array.isArray(json)) {
        w.tag(6, WIRE_DELIMITED);
        w.fork();
        for (const item of json) {
          w.tag(1, WIRE_DELIMITED);
          w.fork();
          writeValueJson(w, item);
          w.join();
        }
        w.join();
      } else {
        w.tag(5, WIRE_DELIMITED);
        w.fork();
        writeStructJson(w, json);
        w.join();
      }
      return;
    default:
      return;
  }
}

function put(target: { [key: string]: Json }, key: string, value: Json): void {
  // "__proto__" is a member like any other, not the prototype.
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** Reads a Struct's fields up to `end` as a JSON object. */
export function readStructJson(r: WireReader, end: number): { [key: string]: Json } {
  const out: { [key: string]: Json } = {};
  while (r.pos < end) {
    const tag = r.tag();
    if (tag >>> 3 !== 1 || (tag & 7) !== WIRE_DELIMITED) {
      r.skip(tag & 7, tag >>> 3);
      continue;
    }
    const entryEnd = r.delimitedEnd();
    let key = "";
    let value: Json = null;
    while (r.pos < entryEnd) {
      const t = r.tag();
      if (t === ((1 << 3) | WIRE_DELIMITED)) key = r.string();
      else if (t === ((2 << 3) | WIRE_DELIMITED)) value = readValueJson(r, r.delimitedEnd());
      else r.skip(t & 7, t >>> 3);
    }
    put(out, key, value);
  }
  return out;
}

/** Reads a Value's fields up to `end` as JSON; a Value with no kind is null. */
export function readValueJson(r: WireReader, end: number): Json {
  let value: Json = null;
  while (r.pos < end) {
    const tag = r.tag();
    switch (tag) {
      case (1 << 3) | WIRE_VARINT:
        r.int32();
        value = null;
        break;
      case (2 << 3) | WIRE_FIXED64:
        value = r.double();
        break;
      case (3 << 3) | WIRE_DELIMITED:
        value = r.string();
        break;
      case (4 << 3) | WIRE_VARINT:
        value = r.bool();
        break;
      case (5 << 3) | WIRE_DELIMITED:
        value = readStructJson(r, r.delimitedEnd());
        break;
      case (6 << 3) | WIRE_DELIMITED:
        value = readListJson(r, r.delimitedEnd());
        break;
      default:
        r.skip(tag & 7, tag >>> 3);
    }
  }
  return value;
}

function readListJson(r: WireReader, end: number): Json[] {
  const out: Json[] = [];
  while (r.pos < end) {
    const tag = r.tag();
    if (tag === ((1 << 3) | WIRE_DELIMITED)) out.push(readValueJson(r, r.delimitedEnd()));
    else r.skip(tag & 7, tag >>> 3);
  }
  return out;
}

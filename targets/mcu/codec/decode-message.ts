// Decodes a message to the shape protobuf-es's `fromBinary` gives the handlers (less its
// `$typeName`): every implicit field at its zero value (64-bit integers as 0n), lists and maps
// empty, oneofs `{ case: undefined }`, message and `optional` fields absent until seen, Struct
// fields as JSON. Repeated scalars are read packed or not; a message field seen twice is merged;
// unknown fields are skipped.
import type { MessageSpecs, MessageSpec } from "./message-spec.js";
import { readStructJson } from "./struct-json.js";
import type { WireReader } from "./wire-reader.js";
import { LIST, MAP, PACKED, SINGULAR, T, type FieldSpec } from "./wire-tables.js";
import { wireTypeOf } from "./encode-message.js";
import { WIRE_DELIMITED } from "./wire-writer.js";

type Shape = Record<string, unknown>;

function put(target: Shape, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

function zeroOf(type: number): unknown {
  switch (type) {
    case T.bool:
      return false;
    case T.string:
      return "";
    case T.bytes:
      return new Uint8Array(0);
    case T.int64:
    case T.uint64:
    case T.fixed64:
    case T.sfixed64:
    case T.sint64:
      return BigInt(0);
    default:
      return 0;
  }
}

/** A message of `spec` with nothing set. */
export function zeroMessage(spec: MessageSpec): Shape {
  const out: Shape = {};
  for (const f of spec.fields) {
    if (f.oneof !== undefined) {
      if (!(f.oneof in out)) out[f.oneof] = { case: undefined };
    } else if (f.shape === LIST || f.shape === PACKED) {
      out[f.name] = [];
    } else if (f.shape === MAP) {
      out[f.name] = {};
    } else if (f.type !== T.message && f.type !== T.json && !f.explicit) {
      out[f.name] = zeroOf(f.type);
    }
  }
  return out;
}

function readScalar(r: WireReader, type: number): unknown {
  switch (type) {
    case T.double:
      return r.double();
    case T.float:
      return r.float();
    case T.int64:
      return r.int64();
    case T.uint64:
      return r.uint64();
    case T.int32:
    case T.enum:
      return r.int32();
    case T.fixed64:
      return r.fixed64();
    case T.fixed32:
      return r.fixed32();
    case T.bool:
      return r.bool();
    case T.string:
      return r.string();
    case T.bytes:
      return r.bytes();
    case T.uint32:
      return r.uint32();
    case T.sfixed32:
      return r.sfixed32();
    case T.sfixed64:
      return r.sfixed64();
    case T.sint32:
      return r.sint32();
    case T.sint64:
      return r.sint64();
    default:
      throw new Error(`wire tables: ${type} is not a scalar type`);
  }
}

function isPackable(type: number): boolean {
  return type !== T.string && type !== T.bytes && type !== T.message && type !== T.json;
}

/** One value of field `f`; `into` is a message to merge into, when there is one. */
function readValue(r: WireReader, specs: MessageSpecs, f: FieldSpec, into?: unknown): unknown {
  if (f.type === T.message) {
    const end = r.delimitedEnd();
    const target = into !== null && typeof into === "object" ? (into as Shape) : zeroMessage(specs.spec(f.message));
    return readFields(r, specs, f.message, end, target);
  }
  if (f.type === T.json) return readStructJson(r, r.delimitedEnd());
  return readScalar(r, f.type);
}

function readMapEntry(r: WireReader, specs: MessageSpecs, f: FieldSpec, map: Shape): void {
  const end = r.delimitedEnd();
  let key = "";
  let value: unknown;
  while (r.pos < end) {
    const tag = r.tag();
    const no = tag >>> 3;
    if (no === 1) key = r.string();
    else if (no === 2) value = readValue(r, specs, f);
    else r.skip(tag & 7, no);
  }
  if (value === undefined) {
    if (f.type === T.message) value = zeroMessage(specs.spec(f.message));
    else value = f.type === T.json ? {} : zeroOf(f.type);
  }
  put(map, key, value);
}

function readField(r: WireReader, specs: MessageSpecs, f: FieldSpec, wireType: number, out: Shape): void {
  const expected = f.shape === MAP ? WIRE_DELIMITED : wireTypeOf(f.type);
  if (wireType !== expected && !(wireType === WIRE_DELIMITED && f.shape !== SINGULAR && isPackable(f.type))) {
    throw new Error(`field ${f.no} (${f.name}) has wire type ${wireType}, not ${expected}`);
  }
  switch (f.shape) {
    case SINGULAR:
      if (f.oneof !== undefined) {
        const group = out[f.oneof] as { case: unknown; value?: unknown };
        out[f.oneof] = { case: f.name, value: readValue(r, specs, f, group.case === f.name ? group.value : undefined) };
      } else {
        out[f.name] = readValue(r, specs, f, f.type === T.message ? out[f.name] : undefined);
      }
      return;
    case LIST:
    case PACKED: {
      const list = out[f.name] as unknown[];
      if (wireType === WIRE_DELIMITED && isPackable(f.type)) {
        const end = r.delimitedEnd();
        while (r.pos < end) list.push(readScalar(r, f.type));
      } else {
        list.push(readValue(r, specs, f));
      }
      return;
    }
    case MAP:
      readMapEntry(r, specs, f, out[f.name] as Shape);
      return;
  }
}

/** Reads the fields of message `index` up to `end` into `out`. */
export function readFields(r: WireReader, specs: MessageSpecs, index: number, end: number, out: Shape): Shape {
  const spec = specs.spec(index);
  while (r.pos < end) {
    const tag = r.tag();
    const no = tag >>> 3;
    if (no === 0) throw new Error(`${spec.name}: field number 0 is not a field`);
    const f = spec.byNumber.get(no);
    if (f === undefined) r.skip(tag & 7, no);
    else readField(r, specs, f, tag & 7, out);
  }
  if (r.pos !== end) throw new Error(`${spec.name}: a field runs past the end of the message`);
  return out;
}

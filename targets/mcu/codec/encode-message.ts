// Encodes a protobuf-es init shape (what the handlers return) exactly as
// `toBinary(Schema, create(Schema, init))` would: fields in number order, implicit-presence
// fields only when not zero (a double -0 is written), proto3 `optional` and message fields
// whenever set, oneofs by their case, packed repeated scalars, maps in key order with key and
// value always written, Struct fields from JSON.
import type { MessageSpecs } from "./message-spec.js";
import { writeStructJson } from "./struct-json.js";
import { LIST, MAP, PACKED, SINGULAR, T, type FieldSpec } from "./wire-tables.js";
import { WIRE_DELIMITED, WIRE_FIXED32, WIRE_FIXED64, WIRE_VARINT, type WireWriter } from "./wire-writer.js";

type Init = Record<string, unknown>;

function isRecord(value: unknown): value is Init {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

export function wireTypeOf(type: number): number {
  switch (type) {
    case T.double:
    case T.fixed64:
    case T.sfixed64:
      return WIRE_FIXED64;
    case T.float:
    case T.fixed32:
    case T.sfixed32:
      return WIRE_FIXED32;
    case T.string:
    case T.bytes:
    case T.message:
    case T.json:
      return WIRE_DELIMITED;
    default:
      return WIRE_VARINT;
  }
}

function isZero(type: number, value: unknown): boolean {
  switch (type) {
    case T.bool:
      return value === false;
    case T.string:
      return value === "";
    case T.bytes:
      return value instanceof Uint8Array && value.byteLength === 0;
    case T.double:
    case T.float:
      return value === 0 && 1 / (value as number) > 0;
    case T.enum:
      return value === 0;
    default:
      // Loose on purpose, as protobuf-es: 0, 0n and "0" are all zero.
      return (value as number) == 0;
  }
}

function toBytes(value: unknown): Uint8Array {
  return Array.isArray(value) ? new Uint8Array(value as number[]) : (value as Uint8Array);
}

export function writeScalar(w: WireWriter, type: number, value: unknown): void {
  switch (type) {
    case T.double:
      return w.double(value as number);
    case T.float:
      return w.float(value as number);
    case T.int64:
      return w.int64(value);
    case T.uint64:
      return w.uint64(value);
    case T.int32:
    case T.enum:
      return w.int32(value as number);
    case T.fixed64:
      return w.fixed64(value);
    case T.fixed32:
      return w.fixed32(value as number);
    case T.bool:
      return w.bool(value as boolean);
    case T.string:
      return w.string(value as string);
    case T.bytes:
      return w.bytes(toBytes(value));
    case T.uint32:
      return w.uint32(value as number);
    case T.sfixed32:
      return w.sfixed32(value as number);
    case T.sfixed64:
      return w.sfixed64(value);
    case T.sint32:
      return w.sint32(value as number);
    case T.sint64:
      return w.sint64(value);
    default:
      throw new Error(`wire tables: ${type} is not a scalar type`);
  }
}

/** One value of field `f` with its tag (field number `no`). */
function writeValue(w: WireWriter, specs: MessageSpecs, f: FieldSpec, value: unknown, no: number): void {
  if (f.type === T.message) {
    w.tag(no, WIRE_DELIMITED);
    w.fork();
    writeMessage(w, specs, f.message, isRecord(value) ? value : {});
    w.join();
  } else if (f.type === T.json) {
    w.tag(no, WIRE_DELIMITED);
    w.fork();
    writeStructJson(w, value);
    w.join();
  } else {
    w.tag(no, wireTypeOf(f.type));
    writeScalar(w, f.type, value);
  }
}

function writeField(w: WireWriter, specs: MessageSpecs, f: FieldSpec, value: unknown): void {
  switch (f.shape) {
    case SINGULAR:
      if (value === undefined || value === null) return;
      if (f.type !== T.message && f.type !== T.json && !f.explicit && isZero(f.type, value)) return;
      writeValue(w, specs, f, value, f.no);
      return;
    case LIST:
      if (Array.isArray(value)) for (const item of value) writeValue(w, specs, f, item, f.no);
      return;
    case PACKED:
      if (!Array.isArray(value) || value.length === 0) return;
      w.tag(f.no, WIRE_DELIMITED);
      w.fork();
      for (const item of value) writeScalar(w, f.type, item);
      w.join();
      return;
    case MAP:
      if (!isRecord(value)) return;
      for (const key of Object.keys(value)) {
        w.tag(f.no, WIRE_DELIMITED);
        w.fork();
        w.tag(1, WIRE_DELIMITED);
        w.string(key);
        writeValue(w, specs, f, value[key], 2);
        w.join();
      }
      return;
  }
}

/** Writes the fields of message `index` from the init shape `init`. */
export function writeMessage(w: WireWriter, specs: MessageSpecs, index: number, init: Init): void {
  const spec = specs.spec(index);
  for (const f of spec.sorted) {
    if (f.oneof === undefined) {
      writeField(w, specs, f, init[f.name]);
      continue;
    }
    const group = init[f.oneof];
    if (isRecord(group) && group.case === f.name) writeValue(w, specs, f, group.value, f.no);
  }
}

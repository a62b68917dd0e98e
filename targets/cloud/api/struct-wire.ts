// Whether bytes are a well-formed google.protobuf.Struct, checked on the wire without decoding:
// every field framed and of its type's wire type, every key and string UTF-8, every Value with a
// kind and every map entry with a value, nested Structs and lists within MAX_STRUCT_DEPTH, and no
// more Values than the budget allows. What is kept therefore always decodes later (protobuf-es
// stops at 100 nested messages; a Struct level is two of them), is never larger once decoded and
// encoded again (an empty Value would come back twice its size as a null), and costs a reader a
// bounded number of objects.
import { MAX_STRUCT_DEPTH } from "../../../core/index.js";
import { expectWireType, isUtf8Span, readSpan, readTag, skipField, WireError, wireReader, WireType, type WireReader } from "../storage/wire-reader.js";

// How deep Structs and lists may nest inside one another (the machines' uploader keeps to it too).
export { MAX_STRUCT_DEPTH };

/** Values counted against a budget shared by the Structs of one entry. */
export interface ValueBudget {
  left: number;
  readonly of: number;
}

/** Throws a WireError saying what is wrong with the Struct in `bytes[start, end)`; spends `budget` on its Values. */
export function checkStruct(bytes: Uint8Array, start: number, end: number, budget: ValueBudget): void {
  structAt(wireReader(bytes, start, end), 1, budget);
}

// Struct { map<string, Value> fields = 1; }, each map entry { string key = 1; Value value = 2; }.
function structAt(reader: WireReader, depth: number, budget: ValueBudget): void {
  eachItem(reader, depth, (entry) => {
    const inner = wireReader(reader.bytes, entry.start, entry.end);
    let valued = false;
    while (inner.pos < inner.end) {
      const tag = readTag(inner);
      if (tag.field === 2) {
        expectWireType(tag.field, tag.wireType, WireType.Bytes);
        const value = readSpan(inner);
        valueAt(wireReader(reader.bytes, value.start, value.end), depth, budget);
        valued = true;
      } else if (tag.field === 1) {
        expectWireType(tag.field, tag.wireType, WireType.Bytes);
        utf8At(reader.bytes, readSpan(inner));
      } else {
        skipField(inner, tag.wireType);
      }
    }
    if (!valued) throw new WireError("a key without a value");
  });
}

// ListValue { repeated Value values = 1; }
function listAt(reader: WireReader, depth: number, budget: ValueBudget): void {
  eachItem(reader, depth, (value) => valueAt(wireReader(reader.bytes, value.start, value.end), depth, budget));
}

// A Struct's entries and a list's values alike: each field 1 of the message, as bytes.
function eachItem(reader: WireReader, depth: number, visit: (span: { start: number; end: number }) => void): void {
  if (depth > MAX_STRUCT_DEPTH) throw new WireError(`nested more than ${MAX_STRUCT_DEPTH} deep`);
  while (reader.pos < reader.end) {
    const { field, wireType } = readTag(reader);
    if (field !== 1) {
      skipField(reader, wireType);
      continue;
    }
    expectWireType(field, wireType, WireType.Bytes);
    visit(readSpan(reader));
  }
}

// Value { oneof kind { NullValue null_value = 1; double number_value = 2; string string_value = 3;
// bool bool_value = 4; Struct struct_value = 5; ListValue list_value = 6; } }
const valueWireTypes = [undefined, WireType.Varint, WireType.Fixed64, WireType.Bytes, WireType.Varint, WireType.Bytes, WireType.Bytes];

function valueAt(reader: WireReader, depth: number, budget: ValueBudget): void {
  if (--budget.left < 0) throw new WireError(`more than ${budget.of} values`);
  let kind = false;
  while (reader.pos < reader.end) {
    const { field, wireType } = readTag(reader);
    const wanted = valueWireTypes[field];
    if (wanted === undefined) {
      skipField(reader, wireType);
      continue;
    }
    expectWireType(field, wireType, wanted);
    kind = true;
    if (field === 3) {
      utf8At(reader.bytes, readSpan(reader));
    } else if (field === 5 || field === 6) {
      const nested = readSpan(reader);
      const nestedReader = wireReader(reader.bytes, nested.start, nested.end);
      if (field === 5) structAt(nestedReader, depth + 1, budget);
      else listAt(nestedReader, depth + 1, budget);
    } else {
      skipField(reader, wireType);
    }
  }
  if (!kind) throw new WireError("a Value with no kind (a null is null_value)");
}

function utf8At(bytes: Uint8Array, span: { start: number; end: number }): void {
  if (!isUtf8Span(bytes, span.start, span.end)) throw new WireError("a string that is not valid UTF-8");
}

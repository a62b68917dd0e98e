// Protobuf's wire format read by hand, for bytes svc-cloud checks and keeps without decoding them
// into objects (a machine's log entries, and the store's chunks of them). A reader covers one
// message's bytes; every read stays inside them, and anything malformed throws a WireError saying
// what, which the caller turns into an error saying where. (The MCU codec has a reader of its own,
// which decodes values; this one answers where bytes are, so that nothing is copied or made.)

import { isUtf8 } from "node:buffer";

export class WireError extends Error {}

/** The wire types protobuf has; groups (3, 4) are long deprecated and never accepted here. */
export const WireType = { Varint: 0, Fixed64: 1, Bytes: 2, Fixed32: 5 } as const;

export interface WireReader {
  readonly bytes: Uint8Array;
  pos: number;
  readonly end: number;
}

export function wireReader(bytes: Uint8Array, pos = 0, end = bytes.length): WireReader {
  return { bytes, pos, end };
}

export function atEnd(reader: WireReader): boolean {
  return reader.pos >= reader.end;
}

/** A varint as a number: exact below 2^53, which is all a caller here needs to be. */
export function readVarint(reader: WireReader): number {
  let value = 0;
  let scale = 1;
  for (let i = 0; i < 10; i++) {
    if (reader.pos >= reader.end) throw new WireError("cut short inside a varint");
    const byte = reader.bytes[reader.pos++]!;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return value;
    scale *= 128;
  }
  throw new WireError("a varint longer than 10 bytes");
}

/** The next field's number and wire type. */
export function readTag(reader: WireReader): { field: number; wireType: number } {
  const key = readVarint(reader);
  const field = Math.floor(key / 8);
  if (field < 1 || field > 536_870_911) throw new WireError(`field number ${field} is out of range`);
  return { field, wireType: key % 8 };
}

/** A length-delimited field's extent; the reader moves past it. */
export function readSpan(reader: WireReader): { start: number; end: number } {
  const length = readVarint(reader);
  if (length > reader.end - reader.pos) throw new WireError(`a field of ${length} bytes runs past the message's end`);
  const start = reader.pos;
  reader.pos += length;
  return { start, end: reader.pos };
}

/** Moves past a field of `wireType` whose value is next. */
export function skipField(reader: WireReader, wireType: number): void {
  switch (wireType) {
    case WireType.Varint:
      readVarint(reader);
      return;
    case WireType.Bytes:
      readSpan(reader);
      return;
    case WireType.Fixed64:
    case WireType.Fixed32: {
      const size = wireType === WireType.Fixed64 ? 8 : 4;
      if (reader.end - reader.pos < size) throw new WireError("cut short inside a fixed-size field");
      reader.pos += size;
      return;
    }
    default:
      throw new WireError(`wire type ${wireType} is not accepted`);
  }
}

/** Throws unless `wireType` is what the field must have. */
export function expectWireType(field: number, wireType: number, wanted: number): void {
  if (wireType !== wanted) throw new WireError(`field ${field} has wire type ${wireType}, not ${wanted}`);
}

/** Whether `bytes[start, end)` is UTF-8, as a protobuf string must be. Text that is ASCII (most is) is told without a view made. */
export function isUtf8Span(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (bytes[i]! >= 0x80) return isUtf8(bytes.subarray(start, end));
  return true;
}

/** Calls `visit` with each length-delimited field of the message in `bytes`, by number and extent; other fields are passed over. */
export function eachDelimited(bytes: Uint8Array, visit: (field: number, start: number, end: number) => void): void {
  const reader = wireReader(bytes);
  while (reader.pos < reader.end) {
    const { field, wireType } = readTag(reader);
    if (wireType !== WireType.Bytes) {
      skipField(reader, wireType);
      continue;
    }
    const span = readSpan(reader);
    visit(field, span.start, span.end);
  }
}

// Protobuf's binary wire format, read. Integers come back as protobuf-es gives them: 32-bit
// types as numbers, 64-bit types as bigints. Anything that runs past the end or is not protobuf
// throws, so a bad request fails as a whole.
import { decodeUtf8 } from "./utf8.js";
import { WIRE_DELIMITED, WIRE_FIXED32, WIRE_FIXED64, WIRE_VARINT } from "./wire-writer.js";

const WIRE_START_GROUP = 3;
const WIRE_END_GROUP = 4;
const SHIFT_32 = BigInt(32);

export interface WireReader {
  /** Where reading stands. */
  readonly pos: number;
  /** The next tag, as `(field number << 3) | wire type`. */
  tag(): number;
  /** Reads a length prefix and returns where that part ends. */
  delimitedEnd(): number;
  int32(): number;
  uint32(): number;
  sint32(): number;
  int64(): bigint;
  uint64(): bigint;
  sint64(): bigint;
  fixed32(): number;
  sfixed32(): number;
  fixed64(): bigint;
  sfixed64(): bigint;
  float(): number;
  double(): number;
  bool(): boolean;
  string(): string;
  bytes(): Uint8Array;
  /** Skips the value of a field of this wire type. */
  skip(wireType: number, no: number): void;
}

export function createWireReader(bytes: Uint8Array): WireReader {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const size = bytes.length;
  let pos = 0;
  // The high 32 bits of the last varint read.
  let hi = 0;

  function past(): Error {
    return new Error("premature end of the message");
  }

  function need(n: number): void {
    if (pos + n > size) throw past();
  }

  /** A varint of up to 64 bits: returns its low 32 bits unsigned; the high ones are left in `hi`. */
  function varint(): number {
    let lo = 0;
    hi = 0;
    for (let shift = 0; shift < 70; shift += 7) {
      if (pos >= size) throw past();
      const b = bytes[pos++]!;
      const bits = b & 0x7f;
      if (shift < 28) lo |= bits << shift;
      else if (shift === 28) {
        lo |= (bits & 0x0f) << 28;
        hi |= bits >> 4;
      } else hi |= bits << (shift - 32);
      if (b < 0x80) return lo >>> 0;
    }
    throw new Error("a varint longer than 10 bytes");
  }

  function unsigned64(lo: number): bigint {
    return (BigInt(hi >>> 0) << SHIFT_32) | BigInt(lo >>> 0);
  }

  function fixedHalves(): bigint {
    need(8);
    const lo = view.getUint32(pos, true);
    hi = view.getUint32(pos + 4, true);
    pos += 8;
    return unsigned64(lo);
  }

  function delimitedEnd(): number {
    const length = varint();
    const end = pos + length;
    if (end > size) throw past();
    return end;
  }

  const reader: WireReader = {
    get pos() {
      return pos;
    },
    tag: () => varint(),
    delimitedEnd,
    int32: () => varint() | 0,
    uint32: () => varint(),
    sint32() {
      const n = varint();
      return (n >>> 1) ^ -(n & 1);
    },
    int64: () => BigInt.asIntN(64, unsigned64(varint())),
    uint64: () => unsigned64(varint()),
    sint64() {
      const u = unsigned64(varint());
      return BigInt.asIntN(64, (u >> BigInt(1)) ^ -(u & BigInt(1)));
    },
    fixed32() {
      need(4);
      pos += 4;
      return view.getUint32(pos - 4, true);
    },
    sfixed32() {
      need(4);
      pos += 4;
      return view.getInt32(pos - 4, true);
    },
    fixed64: () => fixedHalves(),
    sfixed64: () => BigInt.asIntN(64, fixedHalves()),
    float() {
      need(4);
      pos += 4;
      return view.getFloat32(pos - 4, true);
    },
    double() {
      need(8);
      pos += 8;
      return view.getFloat64(pos - 8, true);
    },
    bool() {
      const lo = varint();
      return lo !== 0 || hi !== 0;
    },
    string() {
      const end = delimitedEnd();
      const start = pos;
      pos = end;
      return decodeUtf8(bytes, start, end);
    },
    bytes() {
      const end = delimitedEnd();
      const out = bytes.slice(pos, end);
      pos = end;
      return out;
    },
    skip(wireType, no) {
      switch (wireType) {
        case WIRE_VARINT:
          varint();
          return;
        case WIRE_FIXED64:
          need(8);
          pos += 8;
          return;
        case WIRE_DELIMITED:
          pos = delimitedEnd();
          return;
        case WIRE_FIXED32:
          need(4);
          pos += 4;
          return;
        case WIRE_START_GROUP:
          for (;;) {
            const tag = varint();
            if ((tag & 7) === WIRE_END_GROUP) {
              if (tag >>> 3 !== no) throw new Error(`a group of field ${no} ended as field ${tag >>> 3}`);
              return;
            }
            reader.skip(tag & 7, tag >>> 3);
          }
        default:
          throw new Error(`field ${no} has the unknown wire type ${wireType}`);
      }
    },
  };
  return reader;
}

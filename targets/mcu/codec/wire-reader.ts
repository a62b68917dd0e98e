// Protobuf's binary wire format, read. Integers come back as protobuf-es gives them: 32-bit
// types as numbers, 64-bit types as bigints. Anything that runs past the end or is not protobuf
// throws, so a bad request fails as a whole.
import { skipField } from "./skip-field.js";
import { decodeUtf8 } from "./utf8.js";

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
  /** Skips `n` bytes. */
  skipBytes(n: number): void;
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

  /** Moves past the next `n` bytes; returns where they start. */
  function take(n: number): number {
    const at = pos;
    if (at + n > size) throw past();
    pos = at + n;
    return at;
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
    const at = take(8);
    hi = view.getUint32(at + 4, true);
    return unsigned64(view.getUint32(at, true));
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
    fixed32: () => view.getUint32(take(4), true),
    sfixed32: () => view.getInt32(take(4), true),
    fixed64: () => fixedHalves(),
    sfixed64: () => BigInt.asIntN(64, fixedHalves()),
    float: () => view.getFloat32(take(4), true),
    double: () => view.getFloat64(take(8), true),
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
    skipBytes: (n) => void take(n),
    skip: (wireType, no) => skipField(reader, wireType, no),
  };
  return reader;
}

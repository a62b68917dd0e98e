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
  return new BytesReader(bytes);
}

/**
 * The reader as a class: one is made per message read, and its methods are shared by all of them,
 * where a factory's closures would each carry a copy of their code on a microcontroller.
 */
class BytesReader implements WireReader {
  private readonly view: DataView;
  private readonly size: number;
  pos = 0;
  // The high 32 bits of the last varint read.
  private hi = 0;

  constructor(private readonly data: Uint8Array) {
    this.view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    this.size = data.length;
  }

  /** Moves past the next `n` bytes; returns where they start. */
  private take(n: number): number {
    const at = this.pos;
    if (at + n > this.size) throw past();
    this.pos = at + n;
    return at;
  }

  /** A varint of up to 64 bits: returns its low 32 bits unsigned; the high ones are left in `hi`. */
  private varint(): number {
    const { data, size } = this;
    let lo = 0;
    let hi = 0;
    let pos = this.pos;
    for (let shift = 0; shift < 70; shift += 7) {
      if (pos >= size) throw past();
      const b = data[pos++]!;
      const bits = b & 0x7f;
      if (shift < 28) lo |= bits << shift;
      else if (shift === 28) {
        lo |= (bits & 0x0f) << 28;
        hi |= bits >> 4;
      } else hi |= bits << (shift - 32);
      if (b < 0x80) {
        this.pos = pos;
        this.hi = hi;
        return lo >>> 0;
      }
    }
    throw new Error("a varint longer than 10 bytes");
  }

  private unsigned64(lo: number): bigint {
    return (BigInt(this.hi >>> 0) << SHIFT_32) | BigInt(lo >>> 0);
  }

  private fixedHalves(): bigint {
    const at = this.take(8);
    this.hi = this.view.getUint32(at + 4, true);
    return this.unsigned64(this.view.getUint32(at, true));
  }

  delimitedEnd(): number {
    const length = this.varint();
    const end = this.pos + length;
    if (end > this.size) throw past();
    return end;
  }

  tag(): number {
    return this.varint();
  }

  int32(): number {
    return this.varint() | 0;
  }

  uint32(): number {
    return this.varint();
  }

  sint32(): number {
    const n = this.varint();
    return (n >>> 1) ^ -(n & 1);
  }

  int64(): bigint {
    return BigInt.asIntN(64, this.unsigned64(this.varint()));
  }

  uint64(): bigint {
    return this.unsigned64(this.varint());
  }

  sint64(): bigint {
    const u = this.unsigned64(this.varint());
    return BigInt.asIntN(64, (u >> BigInt(1)) ^ -(u & BigInt(1)));
  }

  fixed32(): number {
    return this.view.getUint32(this.take(4), true);
  }

  sfixed32(): number {
    return this.view.getInt32(this.take(4), true);
  }

  fixed64(): bigint {
    return this.fixedHalves();
  }

  sfixed64(): bigint {
    return BigInt.asIntN(64, this.fixedHalves());
  }

  float(): number {
    return this.view.getFloat32(this.take(4), true);
  }

  double(): number {
    return this.view.getFloat64(this.take(8), true);
  }

  bool(): boolean {
    const lo = this.varint();
    return lo !== 0 || this.hi !== 0;
  }

  string(): string {
    const end = this.delimitedEnd();
    const start = this.pos;
    this.pos = end;
    return decodeUtf8(this.data, start, end);
  }

  bytes(): Uint8Array {
    const end = this.delimitedEnd();
    const out = this.data.slice(this.pos, end);
    this.pos = end;
    return out;
  }

  skipBytes(n: number): void {
    this.take(n);
  }

  skip(wireType: number, no: number): void {
    skipField(this, wireType, no);
  }
}

function past(): Error {
  return new Error("premature end of the message");
}

// Protobuf's binary wire format, written: varints, zigzag, fixed widths, IEEE floats, UTF-8 and
// length-delimited nesting. A nested message is written in place and its length prefix slid in
// front of it when it ends, so nesting costs one copy of the bytes and no intermediate chunks.
// Values a field cannot hold are refused as protobuf-es refuses them, naming the type.
import { utf8Length, writeUtf8 } from "./utf8.js";

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_DELIMITED = 2;
export const WIRE_FIXED32 = 5;

export interface WireWriter {
  tag(no: number, wireType: number): void;
  int32(n: number): void;
  uint32(n: number): void;
  sint32(n: number): void;
  int64(v: unknown): void;
  uint64(v: unknown): void;
  sint64(v: unknown): void;
  fixed32(n: number): void;
  sfixed32(n: number): void;
  fixed64(v: unknown): void;
  sfixed64(v: unknown): void;
  float(n: number): void;
  double(n: number): void;
  bool(b: boolean): void;
  string(text: string): void;
  bytes(data: Uint8Array): void;
  /** Starts a length-delimited part; `join` ends it. */
  fork(): void;
  join(): void;
  /** The bytes written; the writer starts afresh. */
  finish(): Uint8Array;
}

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const UINT32_MAX = 4294967295;
const FLOAT32_MAX = 3.4028234663852886e38;
const INT64_MIN = -(BigInt(1) << BigInt(63));
const INT64_MAX = (BigInt(1) << BigInt(63)) - BigInt(1);
const UINT64_MAX = (BigInt(1) << BigInt(64)) - BigInt(1);
const LOW_32 = BigInt(0xffffffff);
const SHIFT_32 = BigInt(32);

function invalid(type: string, value: unknown): Error {
  return new Error(`invalid ${type}: ${typeof value === "bigint" ? `${value}n` : String(value)}`);
}

function int32Of(n: number, type: string, min: number, max: number): number {
  if (typeof n !== "number" || !isFinite(n) || Math.floor(n) !== n || n < min || n > max) throw invalid(type, n);
  return n;
}

function bigOf(v: unknown, type: string, min: bigint, max: bigint): bigint {
  let big: bigint;
  try {
    big = typeof v === "bigint" ? v : BigInt(v as string | number);
  } catch {
    throw invalid(type, v);
  }
  if (big < min || big > max) throw invalid(type, v);
  return big;
}

export function createWireWriter(initialSize = 256): WireWriter {
  let buf = new Uint8Array(initialSize);
  let pos = 0;
  const forks: number[] = [];
  const scratch = new DataView(new ArrayBuffer(8));

  function room(n: number): void {
    if (pos + n <= buf.length) return;
    let size = buf.length * 2;
    while (size < pos + n) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(buf.subarray(0, pos));
    buf = grown;
  }

  /** An unsigned varint of up to 32 bits. */
  function varint32(n: number): void {
    room(5);
    while (n > 0x7f) {
      buf[pos++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    buf[pos++] = n;
  }

  /** A varint of 64 bits given as two unsigned 32-bit halves. */
  function varint64(lo: number, hi: number): void {
    room(10);
    while (hi !== 0 || lo > 0x7f) {
      buf[pos++] = (lo & 0x7f) | 0x80;
      lo = ((lo >>> 7) | (hi << 25)) >>> 0;
      hi >>>= 7;
    }
    buf[pos++] = lo;
  }

  function varintBig(u: bigint): void {
    varint64(Number(u & LOW_32), Number(u >> SHIFT_32));
  }

  function fixedBig(u: bigint): void {
    room(8);
    scratch.setUint32(0, Number(u & LOW_32), true);
    scratch.setUint32(4, Number(u >> SHIFT_32), true);
    copyScratch(8);
  }

  function copyScratch(n: number): void {
    for (let i = 0; i < n; i++) buf[pos++] = scratch.getUint8(i);
  }

  const writer: WireWriter = {
    tag(no, wireType) {
      varint32(((no << 3) | wireType) >>> 0);
    },
    int32(n) {
      const v = int32Of(n, "int32", INT32_MIN, INT32_MAX);
      // A negative int32 is sign-extended to 64 bits, as protobuf requires.
      if (v < 0) varint64(v >>> 0, 0xffffffff);
      else varint32(v);
    },
    uint32(n) {
      varint32(int32Of(n, "uint32", 0, UINT32_MAX));
    },
    sint32(n) {
      const v = int32Of(n, "sint32", INT32_MIN, INT32_MAX);
      varint32(((v << 1) ^ (v >> 31)) >>> 0);
    },
    int64(v) {
      varintBig(BigInt.asUintN(64, bigOf(v, "int64", INT64_MIN, INT64_MAX)));
    },
    uint64(v) {
      varintBig(bigOf(v, "uint64", BigInt(0), UINT64_MAX));
    },
    sint64(v) {
      const big = bigOf(v, "sint64", INT64_MIN, INT64_MAX);
      varintBig(BigInt.asUintN(64, (big << BigInt(1)) ^ (big >> BigInt(63))));
    },
    fixed32(n) {
      room(4);
      scratch.setUint32(0, int32Of(n, "fixed32", 0, UINT32_MAX), true);
      copyScratch(4);
    },
    sfixed32(n) {
      room(4);
      scratch.setInt32(0, int32Of(n, "sfixed32", INT32_MIN, INT32_MAX), true);
      copyScratch(4);
    },
    fixed64(v) {
      fixedBig(bigOf(v, "fixed64", BigInt(0), UINT64_MAX));
    },
    sfixed64(v) {
      fixedBig(BigInt.asUintN(64, bigOf(v, "sfixed64", INT64_MIN, INT64_MAX)));
    },
    float(n) {
      if (typeof n !== "number" || (isFinite(n) && (n > FLOAT32_MAX || n < -FLOAT32_MAX))) throw invalid("float", n);
      room(4);
      scratch.setFloat32(0, n, true);
      copyScratch(4);
    },
    double(n) {
      if (typeof n !== "number") throw invalid("double", n);
      room(8);
      scratch.setFloat64(0, n, true);
      copyScratch(8);
    },
    bool(b) {
      varint32(b ? 1 : 0);
    },
    string(text) {
      const s = typeof text === "string" ? text : String(text);
      const n = utf8Length(s);
      varint32(n);
      room(n);
      pos = writeUtf8(s, buf, pos);
    },
    bytes(data) {
      varint32(data.length);
      room(data.length);
      buf.set(data, pos);
      pos += data.length;
    },
    fork() {
      forks.push(pos);
    },
    join() {
      const start = forks.pop();
      if (start === undefined) throw new Error("wire writer: join without fork");
      const length = pos - start;
      let size = 1;
      for (let n = length; n > 0x7f; n >>>= 7) size++;
      room(size);
      buf.copyWithin(start + size, start, pos);
      let at = start;
      let n = length;
      while (n > 0x7f) {
        buf[at++] = (n & 0x7f) | 0x80;
        n >>>= 7;
      }
      buf[at] = n;
      pos += size;
    },
    finish() {
      const out = buf.slice(0, pos);
      pos = 0;
      forks.length = 0;
      return out;
    },
  };
  return writer;
}

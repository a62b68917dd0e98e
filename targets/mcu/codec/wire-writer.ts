// Protobuf's binary wire format, written: each scalar type in its encoding (varints, zigzag, fixed
// widths, IEEE floats, UTF-8) onto the wire buffer (wire-buffer.ts), which also nests
// length-delimited parts. Values a field cannot hold are refused as protobuf-es refuses them,
// naming the type.
import { createWireBuffer } from "./wire-buffer.js";

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
  const out = createWireBuffer(initialSize);
  const { scratch, varint32, varint64, appendScratch } = out;

  const varintBig = (u: bigint) => varint64(Number(u & LOW_32), Number(u >> SHIFT_32));
  function fixedBig(u: bigint): void {
    scratch.setUint32(0, Number(u & LOW_32), true);
    scratch.setUint32(4, Number(u >> SHIFT_32), true);
    appendScratch(8);
  }

  return {
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
      scratch.setUint32(0, int32Of(n, "fixed32", 0, UINT32_MAX), true);
      appendScratch(4);
    },
    sfixed32(n) {
      scratch.setInt32(0, int32Of(n, "sfixed32", INT32_MIN, INT32_MAX), true);
      appendScratch(4);
    },
    fixed64(v) {
      fixedBig(bigOf(v, "fixed64", BigInt(0), UINT64_MAX));
    },
    sfixed64(v) {
      fixedBig(BigInt.asUintN(64, bigOf(v, "sfixed64", INT64_MIN, INT64_MAX)));
    },
    float(n) {
      if (typeof n !== "number" || (isFinite(n) && (n > FLOAT32_MAX || n < -FLOAT32_MAX))) throw invalid("float", n);
      scratch.setFloat32(0, n, true);
      appendScratch(4);
    },
    double(n) {
      if (typeof n !== "number") throw invalid("double", n);
      scratch.setFloat64(0, n, true);
      appendScratch(8);
    },
    bool(b) {
      varint32(b ? 1 : 0);
    },
    string(text) {
      out.utf8(typeof text === "string" ? text : String(text));
    },
    bytes: out.bytes,
    fork: out.fork,
    join: out.join,
    finish: out.finish,
  };
}

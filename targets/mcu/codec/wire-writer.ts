// Protobuf's binary wire format, written: each scalar type in its encoding (varints, zigzag, fixed
// widths, IEEE floats, UTF-8) onto the wire buffer (wire-buffer.ts), which also nests
// length-delimited parts. Values a field cannot hold are refused as protobuf-es refuses them,
// naming the type.
import { GrowingBuffer } from "./wire-buffer.js";

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
  return new ScalarWriter(initialSize);
}

/** The writer as a class over the buffer: one set of methods for every writer (see GrowingBuffer). */
class ScalarWriter extends GrowingBuffer implements WireWriter {
  private varintBig(u: bigint): void {
    this.varint64(Number(u & LOW_32), Number(u >> SHIFT_32));
  }

  private fixedBig(u: bigint): void {
    this.scratch.setUint32(0, Number(u & LOW_32), true);
    this.scratch.setUint32(4, Number(u >> SHIFT_32), true);
    this.appendScratch(8);
  }

  tag(no: number, wireType: number): void {
    this.varint32(((no << 3) | wireType) >>> 0);
  }

  int32(n: number): void {
    const v = int32Of(n, "int32", INT32_MIN, INT32_MAX);
    // A negative int32 is sign-extended to 64 bits, as protobuf requires.
    if (v < 0) this.varint64(v >>> 0, 0xffffffff);
    else this.varint32(v);
  }

  uint32(n: number): void {
    this.varint32(int32Of(n, "uint32", 0, UINT32_MAX));
  }

  sint32(n: number): void {
    const v = int32Of(n, "sint32", INT32_MIN, INT32_MAX);
    this.varint32(((v << 1) ^ (v >> 31)) >>> 0);
  }

  int64(v: unknown): void {
    this.varintBig(BigInt.asUintN(64, bigOf(v, "int64", INT64_MIN, INT64_MAX)));
  }

  uint64(v: unknown): void {
    this.varintBig(bigOf(v, "uint64", BigInt(0), UINT64_MAX));
  }

  sint64(v: unknown): void {
    const big = bigOf(v, "sint64", INT64_MIN, INT64_MAX);
    this.varintBig(BigInt.asUintN(64, (big << BigInt(1)) ^ (big >> BigInt(63))));
  }

  fixed32(n: number): void {
    this.scratch.setUint32(0, int32Of(n, "fixed32", 0, UINT32_MAX), true);
    this.appendScratch(4);
  }

  sfixed32(n: number): void {
    this.scratch.setInt32(0, int32Of(n, "sfixed32", INT32_MIN, INT32_MAX), true);
    this.appendScratch(4);
  }

  fixed64(v: unknown): void {
    this.fixedBig(bigOf(v, "fixed64", BigInt(0), UINT64_MAX));
  }

  sfixed64(v: unknown): void {
    this.fixedBig(BigInt.asUintN(64, bigOf(v, "sfixed64", INT64_MIN, INT64_MAX)));
  }

  float(n: number): void {
    if (typeof n !== "number" || (isFinite(n) && (n > FLOAT32_MAX || n < -FLOAT32_MAX))) throw invalid("float", n);
    this.scratch.setFloat32(0, n, true);
    this.appendScratch(4);
  }

  double(n: number): void {
    if (typeof n !== "number") throw invalid("double", n);
    this.scratch.setFloat64(0, n, true);
    this.appendScratch(8);
  }

  bool(b: boolean): void {
    this.varint32(b ? 1 : 0);
  }

  string(text: string): void {
    this.utf8(typeof text === "string" ? text : String(text));
  }
}

// The bytes of one message as they are written: a buffer that grows by doubling, the varints and
// fixed-width values appended to it, and length-delimited nesting. A nested part is written in
// place and its length prefix slid in front of it when it ends, so nesting costs one copy of the
// bytes and no intermediate chunks.
import { utf8Length, writeUtf8 } from "./utf8.js";

export interface WireBuffer {
  /** Where a fixed-width value is put (little-endian) before `appendScratch` copies it in. */
  readonly scratch: DataView;
  /** An unsigned varint of up to 32 bits. */
  varint32(n: number): void;
  /** A varint of 64 bits given as two unsigned 32-bit halves. */
  varint64(lo: number, hi: number): void;
  /** The first 4 or 8 bytes of the scratch. */
  appendScratch(n: 4 | 8): void;
  /** A length-prefixed UTF-8 string. */
  utf8(text: string): void;
  /** Length-prefixed bytes. */
  bytes(data: Uint8Array): void;
  /** Starts a length-delimited part; `join` ends it. */
  fork(): void;
  join(): void;
  /** The bytes written; the buffer starts afresh. */
  finish(): Uint8Array;
}

export function createWireBuffer(initialSize: number): WireBuffer {
  return new GrowingBuffer(initialSize);
}

/**
 * The buffer as a class: its methods are shared by every instance, where a factory's closures
 * would each carry a copy of their code on a microcontroller. The wire writer extends it.
 */
export class GrowingBuffer implements WireBuffer {
  private buf: Uint8Array;
  private pos = 0;
  private readonly forks: number[] = [];
  readonly scratch = new DataView(new ArrayBuffer(8));
  // The scratch's first 4 and all 8 bytes, made once: a fixed-width value is appended in one copy.
  private readonly scratch4 = new Uint8Array(this.scratch.buffer, 0, 4);
  private readonly scratch8 = new Uint8Array(this.scratch.buffer, 0, 8);

  constructor(initialSize: number) {
    this.buf = new Uint8Array(initialSize);
  }

  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.buf.subarray(0, this.pos));
    this.buf = grown;
  }

  varint32(n: number): void {
    this.room(5);
    const buf = this.buf;
    let pos = this.pos;
    while (n > 0x7f) {
      buf[pos++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    buf[pos++] = n;
    this.pos = pos;
  }

  varint64(lo: number, hi: number): void {
    this.room(10);
    const buf = this.buf;
    let pos = this.pos;
    while (hi !== 0 || lo > 0x7f) {
      buf[pos++] = (lo & 0x7f) | 0x80;
      lo = ((lo >>> 7) | (hi << 25)) >>> 0;
      hi >>>= 7;
    }
    buf[pos++] = lo;
    this.pos = pos;
  }

  appendScratch(n: 4 | 8): void {
    this.room(n);
    this.buf.set(n === 8 ? this.scratch8 : this.scratch4, this.pos);
    this.pos += n;
  }

  utf8(text: string): void {
    const n = utf8Length(text);
    this.varint32(n);
    this.room(n);
    this.pos = writeUtf8(text, this.buf, this.pos);
  }

  bytes(data: Uint8Array): void {
    this.varint32(data.length);
    this.room(data.length);
    this.buf.set(data, this.pos);
    this.pos += data.length;
  }

  fork(): void {
    this.forks.push(this.pos);
  }

  join(): void {
    const start = this.forks.pop();
    if (start === undefined) throw new Error("wire writer: join without fork");
    const length = this.pos - start;
    let size = 1;
    for (let n = length; n > 0x7f; n >>>= 7) size++;
    this.room(size);
    const buf = this.buf;
    buf.copyWithin(start + size, start, this.pos);
    let at = start;
    let n = length;
    while (n > 0x7f) {
      buf[at++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    buf[at] = n;
    this.pos += size;
  }

  finish(): Uint8Array {
    const out = this.buf.slice(0, this.pos);
    this.pos = 0;
    this.forks.length = 0;
    return out;
  }
}

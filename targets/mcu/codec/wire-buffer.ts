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
  let buf = new Uint8Array(initialSize);
  let pos = 0;
  const forks: number[] = [];
  const scratch = new DataView(new ArrayBuffer(8));
  // The scratch's first 4 and all 8 bytes, made once: a fixed-width value is appended in one copy.
  const scratch4 = new Uint8Array(scratch.buffer, 0, 4);
  const scratch8 = new Uint8Array(scratch.buffer, 0, 8);

  function room(n: number): void {
    if (pos + n <= buf.length) return;
    let size = buf.length * 2;
    while (size < pos + n) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(buf.subarray(0, pos));
    buf = grown;
  }

  function varint32(n: number): void {
    room(5);
    while (n > 0x7f) {
      buf[pos++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    buf[pos++] = n;
  }

  return {
    scratch,
    varint32,
    varint64(lo, hi) {
      room(10);
      while (hi !== 0 || lo > 0x7f) {
        buf[pos++] = (lo & 0x7f) | 0x80;
        lo = ((lo >>> 7) | (hi << 25)) >>> 0;
        hi >>>= 7;
      }
      buf[pos++] = lo;
    },
    appendScratch(n) {
      room(n);
      buf.set(n === 8 ? scratch8 : scratch4, pos);
      pos += n;
    },
    utf8(text) {
      const n = utf8Length(text);
      varint32(n);
      room(n);
      pos = writeUtf8(text, buf, pos);
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
}

// UTF-8 without TextEncoder and TextDecoder, which a microcontroller's XS may lack. Encoding
// turns a lone surrogate into U+FFFD as TextEncoder does; decoding refuses malformed bytes, as
// protobuf does for proto3 strings.

/** Bytes `text` takes in UTF-8. */
export function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && isLow(text.charCodeAt(i + 1))) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

function isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/** Writes `text` into `out` at `at`; returns the position after it. `out` must have room. */
export function writeUtf8(text: string, out: Uint8Array, at: number): number {
  let p = at;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c < 0x80) {
      out[p++] = c;
      continue;
    }
    if (c < 0x800) {
      out[p++] = 0xc0 | (c >> 6);
      out[p++] = 0x80 | (c & 0x3f);
      continue;
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && isLow(next)) {
        c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
        i++;
        out[p++] = 0xf0 | (c >> 18);
        out[p++] = 0x80 | ((c >> 12) & 0x3f);
        out[p++] = 0x80 | ((c >> 6) & 0x3f);
        out[p++] = 0x80 | (c & 0x3f);
        continue;
      }
      c = 0xfffd;
    }
    out[p++] = 0xe0 | (c >> 12);
    out[p++] = 0x80 | ((c >> 6) & 0x3f);
    out[p++] = 0x80 | (c & 0x3f);
  }
  return p;
}

export function encodeUtf8(text: string): Uint8Array {
  const out = new Uint8Array(utf8Length(text));
  writeUtf8(text, out, 0);
  return out;
}

// Code units turned into text per String.fromCharCode.apply: apply puts every argument on the
// engine's stack, and an MCU's XS stack holds 512 slots (targets/mcu/manifest.json).
const CHUNK = 64;

/** The text of `bytes[start, end)`; throws on bytes that are not UTF-8. */
export function decodeUtf8(bytes: Uint8Array, start = 0, end = bytes.length): string {
  const parts: string[] = [];
  let codes: number[] = [];
  let i = start;
  while (i < end) {
    const b = bytes[i++]!;
    if (b < 0x80) {
      codes.push(b);
    } else {
      // The lead byte says how many continuation bytes follow and the range of the first one
      // (which rules out overlong forms, surrogates and code points past U+10FFFF).
      let needed: number;
      let cp: number;
      let lower = 0x80;
      let upper = 0xbf;
      if (b >= 0xc2 && b <= 0xdf) {
        needed = 1;
        cp = b & 0x1f;
      } else if (b >= 0xe0 && b <= 0xef) {
        needed = 2;
        cp = b & 0x0f;
        if (b === 0xe0) lower = 0xa0;
        if (b === 0xed) upper = 0x9f;
      } else if (b >= 0xf0 && b <= 0xf4) {
        needed = 3;
        cp = b & 0x07;
        if (b === 0xf0) lower = 0x90;
        if (b === 0xf4) upper = 0x8f;
      } else {
        throw malformed(i - 1);
      }
      for (let k = 0; k < needed; k++) {
        const c = i < end ? bytes[i]! : -1;
        if (c < lower || c > upper) throw malformed(i);
        lower = 0x80;
        upper = 0xbf;
        cp = (cp << 6) | (c & 0x3f);
        i++;
      }
      if (cp > 0xffff) {
        cp -= 0x10000;
        codes.push(0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
      } else {
        codes.push(cp);
      }
    }
    if (codes.length >= CHUNK) {
      parts.push(String.fromCharCode.apply(String, codes));
      codes = [];
    }
  }
  parts.push(String.fromCharCode.apply(String, codes));
  return parts.join("");
}

function malformed(at: number): Error {
  return new Error(`invalid UTF-8 at byte ${at}`);
}

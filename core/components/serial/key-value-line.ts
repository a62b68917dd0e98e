// Reading `key=value` lines as devices print them (`temp=21.5 hum=40 door=open`): pairs split by
// spaces, tabs, commas or semicolons; numbers become numbers, true/false booleans, anything else
// stays text. Bytes are decoded as UTF-8 here because the core has no TextDecoder in XS.

export type LineValue = number | boolean | string;

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

export function parseKeyValueLine(line: string): Record<string, LineValue> {
  const out: Record<string, LineValue> = {};
  for (const token of line.split(/[\s,;]+/)) {
    const eq = token.indexOf("=");
    if (eq <= 0) continue;
    const key = token.slice(0, eq);
    const text = token.slice(eq + 1);
    out[key] = NUMBER.test(text) ? Number(text) : text === "true" ? true : text === "false" ? false : text;
  }
  return out;
}

/** UTF-8 bytes to text; a malformed sequence becomes U+FFFD, as TextDecoder does. */
export function decodeUtf8(bytes: ArrayLike<number>): string {
  let out = "";
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    const extra = b < 0x80 ? 0 : b >= 0xf0 && b < 0xf8 ? 3 : b >= 0xe0 ? 2 : b >= 0xc0 ? 1 : -1;
    let code = extra === 0 ? b : extra === 1 ? b & 0x1f : extra === 2 ? b & 0x0f : b & 0x07;
    let ok = extra >= 0 && i + extra < bytes.length;
    for (let k = 1; ok && k <= extra; k++) {
      const c = bytes[i + k]!;
      if ((c & 0xc0) !== 0x80) ok = false;
      else code = (code << 6) | (c & 0x3f);
    }
    if (!ok) {
      out += "\ufffd";
      i++;
      continue;
    }
    out += String.fromCodePoint(code);
    i += extra + 1;
  }
  return out;
}

export interface LineSplitter {
  /** Takes bytes as they arrive; calls `onLine` once per complete line. */
  push(bytes: Uint8Array): void;
}

/**
 * Splits a byte stream at "\n" (dropping a "\r" before it). A line longer than `maxBytes` is
 * thrown away up to its end, so a device talking without newlines cannot grow memory.
 */
export function createLineSplitter(maxBytes: number, onLine: (line: string) => void): LineSplitter {
  let pending: number[] = [];
  let overflowing = false;
  return {
    push(bytes) {
      for (let i = 0; i < bytes.length; i++) {
        const b = bytes[i]!;
        if (b !== 0x0a) {
          if (overflowing) continue;
          if (pending.length >= maxBytes) {
            overflowing = true;
            pending = [];
          } else pending.push(b);
          continue;
        }
        if (!overflowing) {
          if (pending.length && pending[pending.length - 1] === 0x0d) pending.pop();
          onLine(decodeUtf8(pending));
        }
        pending = [];
        overflowing = false;
      }
    },
  };
}

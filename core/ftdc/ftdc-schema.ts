// A schema document of Viam's FTDC format: the byte 0x01, then the metric names as a JSON array
// written the way Go's json.Encoder writes it (HTML characters and U+2028/U+2029 escaped, no
// spaces), then the newline that encoder always appends. Readings that follow carry one diff bit
// per name, in this order, until the next schema document.
import { utf8Encode } from "./utf8.js";

/** The first byte of a schema document; the low bit of a reading's first byte is 0. */
export const SCHEMA_BYTE = 0x01;

const shortEscapes: Record<string, string> = { '"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f" };

/** One string as Go's json.Encoder writes it (HTML escaping on, its default). */
export function goJsonString(text: string): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    const c = text.charCodeAt(i);
    const short = shortEscapes[ch];
    if (short !== undefined) out += short;
    else if (c < 0x20 || ch === "<" || ch === ">" || ch === "&" || c === 0x2028 || c === 0x2029) out += `\\u${c.toString(16).padStart(4, "0")}`;
    else out += ch;
  }
  return `${out}"`;
}

/** The schema document for these metric names, byte for byte as rdk writes it. */
export function encodeSchema(names: readonly string[]): Uint8Array {
  const json = utf8Encode(`[${names.map(goJsonString).join(",")}]\n`);
  const out = new Uint8Array(json.length + 1);
  out[0] = SCHEMA_BYTE;
  out.set(json, 1);
  return out;
}

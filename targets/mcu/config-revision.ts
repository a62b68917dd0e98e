// A configuration's revision on the MCU: a hash of its text (no crypto there). The text is walked
// with its iterator: XS keeps strings as UTF-8, so `charCodeAt(i)` seeks from the start each time
// and a loop over indexes is quadratic (a second for 30 KB on a desktop core), while the
// iterator keeps its place.
/** 12 hex digits naming a configuration text (two 32-bit FNV-1a hashes; no crypto on the MCU). */
export function configRevision(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  let i = 0;
  for (const point of text) {
    // One or two UTF-16 code units, hashed as the code units they are.
    for (let k = 0; k < point.length; k++, i++) {
      const c = point.charCodeAt(k);
      a = Math.imul(a ^ c, 0x01000193) >>> 0;
      b = Math.imul(b ^ c ^ (i & 0xff), 0x01000193) >>> 0;
    }
  }
  return (a.toString(16).padStart(8, "0") + b.toString(16).padStart(8, "0")).slice(0, 12);
}

// JSON that carries what protobuf shapes hold and JSON cannot: bigints, bytes, NaN, the
// infinities and -0, tagged on the way out and restored on the way in. Platform neutral, so a
// scenario in XS and the test on Node speak it alike.
type Tagged = unknown;

/** Sets a member, "__proto__" included (assigning that one would change the prototype instead). */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

export function hexOf(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i++) out += (bytes[i]! < 16 ? "0" : "") + bytes[i]!.toString(16);
  return out;
}

export function bytesOfHex(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

export function toTagged(value: unknown): Tagged {
  if (typeof value === "bigint") return { $big: value.toString() };
  if (typeof value === "number") {
    if (value === 0 && 1 / value < 0) return { $num: "-0" };
    return isFinite(value) ? value : { $num: String(value) };
  }
  if (value instanceof Uint8Array) return { $bytes: hexOf(value) };
  if (Array.isArray(value)) return value.map(toTagged);
  if (value !== null && typeof value === "object") {
    const out: Record<string, Tagged> = {};
    for (const key of Object.keys(value)) {
      const member = (value as Record<string, unknown>)[key];
      if (member !== undefined) put(out, key, toTagged(member));
    }
    return out;
  }
  return value;
}

export function fromTagged(value: Tagged): unknown {
  if (Array.isArray(value)) return value.map(fromTagged);
  if (value !== null && typeof value === "object") {
    const o = value as Record<string, unknown>;
    if (typeof o.$big === "string") return BigInt(o.$big);
    if (typeof o.$num === "string") return o.$num === "-0" ? -0 : Number(o.$num);
    if (typeof o.$bytes === "string") return bytesOfHex(o.$bytes);
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(o)) put(out, key, fromTagged(o[key]));
    return out;
  }
  return value;
}

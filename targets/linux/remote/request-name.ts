// A request passed through as bytes, naming its resource as the peer knows it. Every resource
// request carries the resource's name as field 1 (`string name = 1`); protobuf reads the last
// value of a field written twice, so the name the peer knows is written once more at the end of
// the bytes: one copy, nothing decoded. Whether a method's request is shaped so is asked once.
import type { DescMethodUnary } from "@bufbuild/protobuf";

const encoder = new TextEncoder();

/** Whether `method`'s request names its resource in field 1, a string called `name`. */
export function namesResourceFirst(method: DescMethodUnary): boolean {
  const field = method.input.fields.find((f) => f.number === 1);
  return field !== undefined && field.localName === "name" && field.fieldKind === "scalar" && field.scalar === 9;
}

/** Field 1 holding `name`, encoded: what is written after a request to name the resource anew. */
export function nameField(name: string): Uint8Array {
  const text = encoder.encode(name);
  const length: number[] = [];
  for (let n = text.length; ; n >>>= 7) {
    if (n < 0x80) {
      length.push(n);
      break;
    }
    length.push((n & 0x7f) | 0x80);
  }
  const field = new Uint8Array(1 + length.length + text.length);
  field[0] = 0x0a;
  field.set(length, 1);
  field.set(text, 1 + length.length);
  return field;
}

/** `message` with `field` (nameField) after it. */
export function renamed(message: Uint8Array, field: Uint8Array): Uint8Array {
  const out = new Uint8Array(message.length + field.length);
  out.set(message, 0);
  out.set(field, message.length);
  return out;
}

const decoder = new TextDecoder("utf-8", { fatal: true });

/**
 * The resource a request's bytes name: field 1 as a string, its last value as protobuf reads it;
 * undefined when the bytes hold no such field or are not a well-formed message. For requests of
 * APIs svc has no description of, which name their resource first as every resource API does.
 */
export function requestName(bytes: Uint8Array): string | undefined {
  let name: string | undefined;
  let at = 0;
  while (at < bytes.length) {
    const key = readVarint(bytes, at);
    if (key === undefined) return undefined;
    at = key.next;
    const field = Math.floor(key.value / 8);
    const wireType = key.value % 8;
    if (field === 0) return undefined;
    let end: number;
    if (wireType === 0) {
      const value = readVarint(bytes, at);
      if (value === undefined) return undefined;
      end = value.next;
    } else if (wireType === 1 || wireType === 5) {
      end = at + (wireType === 1 ? 8 : 4);
    } else if (wireType === 2) {
      const length = readVarint(bytes, at);
      if (length === undefined) return undefined;
      at = length.next;
      end = at + length.value;
      if (end > bytes.length) return undefined;
      if (field === 1) {
        try {
          name = decoder.decode(bytes.subarray(at, end));
        } catch {
          return undefined;
        }
      }
    } else {
      // Groups (3, 4) belong to proto2 messages no resource API uses.
      return undefined;
    }
    if (end > bytes.length) return undefined;
    at = end;
  }
  return name;
}

/** A varint at `at` (up to ten bytes; past 2^53 its value is near enough for a bound), and where what follows it starts. */
function readVarint(bytes: Uint8Array, at: number): { value: number; next: number } | undefined {
  let value = 0;
  let scale = 1;
  for (let i = at; i < bytes.length && i < at + 10; i++) {
    const byte = bytes[i]!;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return { value, next: i + 1 };
    scale *= 128;
  }
  return undefined;
}

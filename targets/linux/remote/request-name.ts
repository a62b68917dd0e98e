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

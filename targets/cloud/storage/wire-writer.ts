// Writing protobuf's wire format by hand where a general writer costs more than the bytes: sizes
// are worked out first, then everything goes into one buffer of exactly that size. Varints of
// non-negative integers up to 2^53 (a time in ms, a length), and length-delimited fields.

/** How many bytes `value` takes as a varint. */
export function varintSize(value: number): number {
  let size = 1;
  while (value >= 128) {
    value = Math.floor(value / 128);
    size++;
  }
  return size;
}

/** Writes `value` as a varint at `at`; answers where the next byte goes. */
export function writeVarint(into: Uint8Array, at: number, value: number): number {
  while (value >= 128) {
    into[at++] = (value % 128) | 0x80;
    value = Math.floor(value / 128);
  }
  into[at++] = value;
  return at;
}

/** How many bytes a length-delimited field `field` of `length` bytes takes, tag and length included. */
export function delimitedSize(field: number, length: number): number {
  return varintSize(field * 8 + 2) + varintSize(length) + length;
}

/** Writes the tag and length of a length-delimited field at `at`; answers where its bytes go. */
export function writeDelimitedHead(into: Uint8Array, at: number, field: number, length: number): number {
  return writeVarint(into, writeVarint(into, at, field * 8 + 2), length);
}

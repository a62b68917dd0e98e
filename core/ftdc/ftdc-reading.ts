// A reading of Viam's FTDC format: diff bits, the time, then the changed values. Bit 0 of the
// first byte is the schema bit (0 here); metric i is bit i+1, in byte (i+1)>>3 at bit (i+1)&7,
// set when the metric moved by more than 1e-9 since the previous reading (all zeros after a
// schema). The time is nanoseconds since the epoch as a big-endian int64; each changed value
// follows as a big-endian float32, in schema order. Differences are taken in float32, as rdk does.

/** Smaller moves than this are "unchanged", as in rdk. */
export const DIFF_EPSILON = 1e-9;

/** Bytes of diff bits for a schema of `count` metrics: the schema bit plus one bit each. */
export function diffByteCount(count: number): number {
  return 1 + (count >> 3);
}

/** Which metrics changed from `prev` (zeros when undefined) to `curr`. */
export function changedMetrics(prev: ArrayLike<number> | undefined, curr: ArrayLike<number>): boolean[] {
  const changed = new Array<boolean>(curr.length);
  for (let i = 0; i < curr.length; i++) {
    const diff = Math.fround(Math.fround(curr[i]!) - (prev ? Math.fround(prev[i]!) : 0));
    changed[i] = Math.abs(diff) > DIFF_EPSILON;
  }
  return changed;
}

/** One reading, diffed against `prev` (the previous reading's values, or undefined after a schema). */
export function encodeReading(timeNs: bigint, prev: ArrayLike<number> | undefined, curr: ArrayLike<number>): Uint8Array {
  if (prev && prev.length !== curr.length) throw new RangeError(`a reading of ${curr.length} values cannot be diffed against ${prev.length}`);
  const changed = changedMetrics(prev, curr);
  const diffBytes = diffByteCount(curr.length);
  let count = 0;
  for (const c of changed) if (c) count++;
  const out = new Uint8Array(diffBytes + 8 + 4 * count);
  const view = new DataView(out.buffer);
  let at = diffBytes + 8;
  for (let i = 0; i < curr.length; i++) {
    if (!changed[i]) continue;
    out[(i + 1) >> 3]! |= 1 << ((i + 1) & 7);
    view.setFloat32(at, curr[i]!, false);
    at += 4;
  }
  view.setBigInt64(diffBytes, timeNs, false);
  return out;
}

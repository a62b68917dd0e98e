// A log tail's backlog keeps batches in order within its bounds, and holds each entry's own bytes:
// never the request an entry came in, however large that request was.
import { describe, expect, it } from "vitest";
import { createTailBacklog } from "../../targets/cloud/api/tail-backlog.js";

// A request's body as the port reads it: a Buffer, whose own slice() would be another view.
const body = Buffer.alloc(4 * 1024 * 1024, 7);
const entry = (at: number, length: number) => ({ time: at, level: 3, bytes: body.subarray(at, at + length) });

describe("a tail's backlog", () => {
  it("holds each entry's own bytes, not the 4 MiB request they were a view of", () => {
    const backlog = createTailBacklog(100, 1024);
    expect(backlog.offer([entry(10, 20), entry(100, 30)])).toBe(true);
    const batch = backlog.take()!;
    expect(batch.map((e) => e.bytes.buffer.byteLength)).toEqual([20, 30]);
    expect(batch.map((e) => [...e.bytes.subarray(0, 2)])).toEqual([
      [7, 7],
      [7, 7],
    ]);
    expect(backlog.take()).toBeUndefined();
  });

  it("gives batches in order and refuses more once it is past its entries or its bytes", () => {
    const byEntries = createTailBacklog(3, 1024);
    expect(byEntries.offer([entry(0, 1), entry(1, 1)])).toBe(true);
    expect(byEntries.offer([entry(2, 1)])).toBe(true);
    expect(byEntries.take()!.map((e) => e.time)).toEqual([0, 1]);
    expect(byEntries.offer([entry(3, 1), entry(4, 1)])).toBe(true);
    expect(byEntries.offer([entry(5, 1)])).toBe(false);
    expect(byEntries.offer([entry(6, 1)])).toBe(false);

    const byBytes = createTailBacklog(100, 100);
    expect(byBytes.offer([entry(0, 60)])).toBe(true);
    expect(byBytes.offer([entry(0, 60)])).toBe(false);
  });
});

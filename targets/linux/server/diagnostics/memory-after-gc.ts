// The process's memory right after a full garbage collection, for telling a leak (heap used
// after GC grows with the work done) from garbage not yet collected or from the allocator
// keeping pages (resident grows, heap used after GC does not). The collection goes through an
// in-process inspector session, as a heap snapshot's does, so the process needs no --expose-gc.
import { Session } from "node:inspector/promises";
import { getHeapCodeStatistics, getHeapStatistics } from "node:v8";

export interface MemoryAfterGc {
  /** Bytes: process.memoryUsage() once collected. */
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  /** Bytes V8 allocated with malloc, outside the heap. */
  mallocedMemory: number;
  /** Bytes of compiled code and its metadata, inside the heap: grows as more code is optimized. */
  codeAndMetadata: number;
  /** Bytes just before the collection: what the garbage waiting for it held. */
  beforeGc: { rss: number; heapTotal: number; heapUsed: number };
}

export async function memoryAfterGc(): Promise<MemoryAfterGc> {
  const before = process.memoryUsage();
  const session = new Session();
  session.connect();
  try {
    // V8's low-memory collection: full mark-compact, repeated until nothing more is freed.
    await session.post("HeapProfiler.collectGarbage");
  } finally {
    session.disconnect();
  }
  const { rss, heapTotal, heapUsed, external, arrayBuffers } = process.memoryUsage();
  const heap = getHeapStatistics();
  return {
    rss,
    heapTotal,
    heapUsed,
    external,
    arrayBuffers,
    mallocedMemory: heap.malloced_memory,
    codeAndMetadata: getHeapCodeStatistics().code_and_metadata_size,
    beforeGc: { rss: before.rss, heapTotal: before.heapTotal, heapUsed: before.heapUsed },
  };
}

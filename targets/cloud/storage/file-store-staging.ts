// The one way bytes come into a file store: written as they arrive to a file of svc-cloud's own
// (the partial file beside its final name, or the database store's spool), hashed on the way, so
// however large the file, only the piece being written is in memory.
import { createHash } from "node:crypto";
import type { FileHandle } from "node:fs/promises";

/** Writes everything `source` yields to `handle` from its start; answers the size and hex SHA-256. */
export async function receiveInto(handle: FileHandle, source: AsyncIterable<Uint8Array>): Promise<{ size: number; sha256: string }> {
  const hash = createHash("sha256");
  let size = 0;
  for await (const chunk of source) {
    hash.update(chunk);
    // `write` may take less than it was given; the rest follows.
    let written = 0;
    while (written < chunk.byteLength) written += (await handle.write(chunk, written, chunk.byteLength - written, size + written)).bytesWritten;
    size += chunk.byteLength;
  }
  return { size, sha256: hash.digest("hex") };
}

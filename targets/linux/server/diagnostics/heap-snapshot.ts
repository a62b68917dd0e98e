// A heap snapshot in V8's format (`.heapsnapshot`), handed over in chunks as the inspector
// produces them, so a large heap never has to sit in memory twice.
import { Session } from "node:inspector/promises";

export async function takeHeapSnapshot(onChunk: (chunk: string) => void): Promise<void> {
  const session = new Session();
  session.connect();
  const listener = (message: { params: { chunk: string } }) => onChunk(message.params.chunk);
  session.on("HeapProfiler.addHeapSnapshotChunk", listener);
  try {
    await session.post("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
  } finally {
    session.off("HeapProfiler.addHeapSnapshotChunk", listener);
    session.disconnect();
  }
}

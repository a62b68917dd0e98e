// Following svc-cloud's push stream (CloudService.WatchRevisions): each revision it announces is
// handed to `onRevision`. The cloud repeats the current revision when it has been quiet for its
// heartbeat (15 s); a stream silent for `silenceMs` is taken for dead and opened again, as is one
// that ends or fails, after a wait that grows from 1 s to a minute with jitter and starts over
// once a stream delivered.
import type { Clock } from "../../../core/index.js";
import { retryWait } from "../logging/log-uploader.js";
import type { CloudConnection } from "./cloud-connection.js";
import { pauseUnless } from "./pause-unless.js";

/** Twice svc-cloud's heartbeat, and a little. */
export const WATCH_SILENCE_MS = 35_000;

export interface RevisionWatchOptions {
  connection: CloudConnection;
  partId: string;
  clock: Clock;
  onRevision(revision: string): void;
  /** A stream that could not be opened or ended badly, with how many in a row. */
  onTrouble?(problem: string, failures: number): void;
  silenceMs?: number;
  random?: () => number;
}

export interface RevisionWatch {
  close(): Promise<void>;
}

export function watchRevisions(options: RevisionWatchOptions): RevisionWatch {
  const { clock } = options;
  const silenceMs = options.silenceMs ?? WATCH_SILENCE_MS;
  const random = options.random ?? Math.random;
  const closed = new AbortController();
  let failures = 0;

  // One stream, to its end: true when it delivered anything.
  async function follow(): Promise<boolean> {
    const stream = new AbortController();
    const stop = () => stream.abort();
    closed.signal.addEventListener("abort", stop);
    let heard = false;
    let silence = clock.setTimeout(stop, silenceMs);
    try {
      for await (const notice of options.connection.cloud.watchRevisions({ partId: options.partId }, { signal: stream.signal, timeoutMs: 0 })) {
        heard = true;
        failures = 0;
        clock.clearTimeout(silence);
        silence = clock.setTimeout(stop, silenceMs);
        options.onRevision(notice.revision);
      }
      if (!closed.signal.aborted) options.onTrouble?.("the revision stream ended", ++failures);
    } catch (thrown) {
      if (!closed.signal.aborted) options.onTrouble?.(stream.signal.aborted ? `the revision stream was silent for ${silenceMs / 1000} s` : `the revision stream failed: ${String((thrown as Error).message ?? thrown)}`, ++failures);
    } finally {
      clock.clearTimeout(silence);
      closed.signal.removeEventListener("abort", stop);
    }
    return heard;
  }

  const running = (async () => {
    while (!closed.signal.aborted) {
      await follow();
      if (closed.signal.aborted) break;
      await pauseUnless(clock, failures === 0 ? 0 : retryWait(failures, random), closed.signal);
    }
  })();

  return {
    async close() {
      closed.abort();
      await running;
    },
  };
}

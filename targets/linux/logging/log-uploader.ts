// Log entries from the offline queue to the cloud, oldest first, in batches: the waiting entries go
// in one RobotService.Log call (at most MAX_LOG_BATCH and BATCH_BYTES) and leave the queue only
// once the cloud has taken them, so an outage or a restart loses nothing the queue holds. While the
// cloud cannot be reached the uploader waits, from 1 s doubling to a minute, each wait drawn at
// random from its upper half so a fleet coming back does not call at once; the queue keeps what
// comes meanwhile within its bound, dropping the oldest past it. The first batch after a drop
// starts with one entry saying how many were lost. A batch the cloud refuses as malformed
// (INVALID_ARGUMENT; wire-log-entry.ts keeps entries within its bounds, so this is a cloud with
// other rules) is not sent again: its entries are counted with the dropped ones, and the rest go on.
import { ConnectError } from "@connectrpc/connect";
import { Code, MAX_LOG_BATCH, type Clock, type LogEntry } from "../../../core/index.js";
import type { LogEntry as WireLogEntry } from "../../../proto/gen/common/v1/common_pb.js";
import type { OfflineLogQueue } from "./offline-log-queue.js";
import { toWireLogEntry } from "./wire-log-entry.js";

/** Bytes of queued entries (as stored) one call carries at most; far under svc-cloud's 4 MiB a message. */
export const BATCH_BYTES = 1024 * 1024;
export const RETRY_INITIAL_MS = 1000;
export const RETRY_MAX_MS = 60_000;
/** The logger of the entry that says how many were dropped. */
export const DROPPED_LOGGER = "svc.logs";

export interface LogUploaderOptions {
  readonly queue: OfflineLogQueue;
  /** One Log call with these entries; rejects when the cloud did not take them. */
  send(entries: WireLogEntry[]): Promise<void>;
  /** The machine's name, each entry's `host`. */
  readonly host: string;
  readonly clock: Clock;
  /** How long to wait before looking at an empty queue again. Default 1 s. */
  readonly intervalMs?: number;
  /** In [0, 1): where in its upper half each retry wait falls. */
  readonly random?: () => number;
  /** Told why a batch did not go (kept out of the log itself: an entry about the queue would feed it). */
  onProblem?(problem: string, kind: "refused" | "failed"): void;
}

export interface LogUploader {
  /** Sends what waits now; resolves once the queue is empty or a call failed. */
  flush(): Promise<void>;
  /** Stops after the call in flight, if any; the queue keeps the rest. */
  close(): Promise<void>;
  /** Entries the cloud refused, counted with the next batch's dropped ones. */
  readonly refused: number;
}

export function createLogUploader(options: LogUploaderOptions): LogUploader {
  const { queue, clock } = options;
  const intervalMs = options.intervalMs ?? 1000;
  const random = options.random ?? Math.random;
  let closed = false;
  let timer: unknown;
  let running: Promise<boolean> | undefined;
  let failures = 0;
  let refused = 0;

  // One call: true when it was taken and more may wait.
  async function sendOne(): Promise<boolean> {
    const batch = queue.peek({ maxEntries: MAX_LOG_BATCH - 1, maxBytes: BATCH_BYTES });
    const lost = batch.dropped + refused;
    if (batch.entries.length === 0 && lost === 0) return false;
    const entries = batch.entries.map((queued) => toWireLogEntry(queued.entry, options.host));
    if (lost > 0) entries.unshift(toWireLogEntry(droppedNotice(lost, clock.now()), options.host));
    const countedRefused = refused;
    try {
      await options.send(entries);
    } catch (thrown) {
      if (ConnectError.from(thrown).code !== Code.InvalidArgument) throw thrown;
      options.onProblem?.(`the cloud refused ${entries.length} log entries; they are counted as dropped: ${ConnectError.from(thrown).message}`, "refused");
      // Its notice of earlier losses went unheard too: those are counted again. The rest waits for
      // the next round, so a cloud that refuses everything is asked once an interval, not in a loop.
      refused += batch.entries.length + batch.dropped;
      queue.ack(batch);
      return false;
    }
    refused -= countedRefused;
    queue.ack(batch);
    return true;
  }

  // Batches until the queue is empty (true) or a call fails (false).
  async function pump(): Promise<boolean> {
    try {
      while (!closed && (await sendOne()));
      failures = 0;
      return true;
    } catch (thrown) {
      failures++;
      options.onProblem?.(`log upload failed (${failures} in a row): ${ConnectError.from(thrown).message}`, "failed");
      return false;
    }
  }

  function run(): Promise<boolean> {
    running ??= pump().finally(() => {
      running = undefined;
    });
    return running;
  }

  function schedule(ok: boolean): void {
    if (closed) return;
    const wait = ok ? intervalMs : retryWait(failures, random);
    timer = clock.setTimeout(() => void run().then(schedule), wait);
  }

  schedule(true);
  return {
    async flush() {
      await running;
      if (!closed) await run();
    },
    async close() {
      closed = true;
      clock.clearTimeout(timer);
      await running;
    },
    get refused() {
      return refused;
    },
  };
}

/** The wait before retry number `failures`: in the upper half of 1 s doubling, at most a minute. */
export function retryWait(failures: number, random: () => number): number {
  const ceiling = Math.min(RETRY_INITIAL_MS * 2 ** Math.max(0, failures - 1), RETRY_MAX_MS);
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

function droppedNotice(count: number, time: number): LogEntry {
  return {
    time,
    level: "warn",
    logger: DROPPED_LOGGER,
    message: `${count} log ${count === 1 ? "entry was" : "entries were"} dropped before they reached the cloud: the queue was full while the cloud could not be reached, or the cloud refused them`,
    fields: { dropped: count },
  };
}

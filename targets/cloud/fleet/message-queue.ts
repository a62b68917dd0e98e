// Messages waiting to be written to one stream, in order: what the signaling relay has for a
// machine's Answer stream or for a caller's Call stream. The writer takes them one at a time, so a
// slow reader leaves them here rather than in the transport; what may be put in is bounded by the
// relay's own limits (calls per machine, candidates per call), not here. A queue ended without an
// error still hands out what it holds first (the last candidates before "done"); one ended with
// an error drops them, since the exchange they belonged to has failed.
import type { SvcError } from "../../../core/index.js";

export type QueueTake<T> = { kind: "message"; message: T } | { kind: "ended"; error?: SvcError };

export interface MessageQueue<T> {
  /** Adds a message; ignored once the queue has ended. */
  push(message: T): void;
  /** No more messages: the writer ends its stream, with `error` when given. */
  end(error?: SvcError): void;
  /** The next message, once there is one; `ended` once the queue is ended and empty, or `signal` aborts. One reader at a time. */
  take(signal: AbortSignal): Promise<QueueTake<T>>;
  /** Whether the queue has ended (its last messages may still wait to be taken). */
  readonly ended: boolean;
}

export function createMessageQueue<T>(): MessageQueue<T> {
  const waiting: T[] = [];
  let ending: { error?: SvcError } | undefined;
  let wake: (() => void) | undefined;

  const next = (signal: AbortSignal): QueueTake<T> | undefined => {
    if (signal.aborted) return { kind: "ended" };
    if (waiting.length > 0) return { kind: "message", message: waiting.shift()! };
    if (ending !== undefined) return { kind: "ended", error: ending.error };
    return undefined;
  };

  return {
    push(message) {
      if (ending !== undefined) return;
      waiting.push(message);
      wake?.();
    },
    end(error) {
      if (ending !== undefined) return;
      ending = { error };
      if (error !== undefined) waiting.length = 0;
      wake?.();
    },
    take: (signal) =>
      new Promise((resolve) => {
        const ready = next(signal);
        if (ready !== undefined) return resolve(ready);
        const settle = () => {
          const taken = next(signal);
          if (taken === undefined) return;
          wake = undefined;
          signal.removeEventListener("abort", settle);
          resolve(taken);
        };
        wake = settle;
        signal.addEventListener("abort", settle);
      }),
    get ended() {
      return ending !== undefined;
    },
  };
}

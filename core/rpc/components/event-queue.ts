// Events waiting for a stream's reader: the controller pushes as events happen, the stream takes
// them one at a time. A reader that falls far behind loses the oldest events rather than letting
// the queue grow without bound; an end (the controller closed) or a close (the client left)
// wakes a waiting reader.

export interface EventQueue<T> {
  push(item: T): void;
  /** Ends the queue with an error, thrown by `next` once the waiting items are taken. */
  fail(error: Error): void;
  /** Ends the queue: `next` answers undefined from now on. */
  close(): void;
  /** The next item, waiting for one; undefined once closed. */
  next(): Promise<T | undefined>;
}

export function createEventQueue<T>(limit: number): EventQueue<T> {
  const items: T[] = [];
  let failure: Error | undefined;
  let closed = false;
  let wake: (() => void) | undefined;

  const rouse = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };

  return {
    push(item) {
      if (closed || failure !== undefined) return;
      if (items.length >= limit) items.shift();
      items.push(item);
      rouse();
    },
    fail(error) {
      if (closed || failure !== undefined) return;
      failure = error;
      rouse();
    },
    close() {
      closed = true;
      items.length = 0;
      rouse();
    },
    async next() {
      for (;;) {
        if (closed) return undefined;
        if (items.length > 0) return items.shift();
        if (failure !== undefined) throw failure;
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
  };
}

// Hands what happens to a part (a new revision, new log entries) to whoever listens to that part,
// at once, in one process (revision-bus.ts carries revisions between replicas).
export interface TopicBus<T> {
  publish(partId: string, value: T): void;
  /** Calls `listener` with each value published for `partId` until the returned function is called. */
  subscribe(partId: string, listener: (value: T) => void): () => void;
  /** How many listeners there are (for diagnostics and tests). */
  listeners(): number;
  /** The parts listened to. */
  topics(): string[];
}

export function createTopicBus<T>(): TopicBus<T> {
  const byPart = new Map<string, Set<(value: T) => void>>();
  let count = 0;
  return {
    publish: (partId, value) => {
      for (const listener of [...(byPart.get(partId) ?? [])]) listener(value);
    },
    subscribe: (partId, listener) => {
      let set = byPart.get(partId);
      if (set === undefined) byPart.set(partId, (set = new Set()));
      set.add(listener);
      count++;
      let done = false;
      return () => {
        if (done) return;
        done = true;
        count--;
        set!.delete(listener);
        if (set!.size === 0) byPart.delete(partId);
      };
    },
    listeners: () => count,
    topics: () => [...byPart.keys()],
  };
}

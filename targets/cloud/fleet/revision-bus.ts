// Tells whoever listens that a part has a new revision, at once: the device API's revision-notice
// stream waits on it, so a machine fetches its new config within moments of an edit instead of at
// its next poll. In one process; several replicas share it through their database later.
export interface RevisionNotice {
  partId: string;
  revision: number;
  time: number;
}

export interface RevisionBus {
  publish(notice: RevisionNotice): void;
  /** Calls `listener` for each notice of `partId` until the returned function is called. */
  subscribe(partId: string, listener: (notice: RevisionNotice) => void): () => void;
  /** How many listeners there are (for diagnostics and tests). */
  listeners(): number;
}

export function createRevisionBus(): RevisionBus {
  const byPart = new Map<string, Set<(notice: RevisionNotice) => void>>();
  let count = 0;
  return {
    publish: (notice) => {
      for (const listener of [...(byPart.get(notice.partId) ?? [])]) listener(notice);
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
  };
}

// Tells whoever listens that a part has a new revision, at once: the device API's revision-notice
// stream waits on it, so a machine fetches its new config within moments of an edit instead of at
// its next poll.
import { createTopicBus } from "./topic-bus.js";

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
  const bus = createTopicBus<RevisionNotice>();
  return { publish: (notice) => bus.publish(notice.partId, notice), subscribe: bus.subscribe, listeners: bus.listeners };
}

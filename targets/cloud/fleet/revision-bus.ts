// Tells whoever listens that a part has a new revision, at once: the device API's revision-notice
// stream waits on it, so a machine fetches its new config within moments of an edit instead of at
// its next poll. Notices go out on the replicas' channel (replica-channel.ts), so a machine whose
// stream another replica holds hears an edit made here as soon as one made there. Notices
// published in one turn go as one message (a fragment's edit is a notice for each part using it).
// When the channel says notices may have been lost, each part listened to here has its current
// revision read again and handed on: a watch sends only what is newer than what it sent.
import type { ReplicaChannel } from "./replica-channel.js";
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

export interface RevisionBusOptions {
  channel: ReplicaChannel;
  /** The current revisions of these parts (read again after notices may have been lost). */
  current: (partIds: readonly string[]) => Promise<RevisionNotice[]>;
  log: (line: string) => void;
}

const TOPIC = "revisions";

export function createRevisionBus(options: RevisionBusOptions): RevisionBus & { close(): void } {
  const { channel, log } = options;
  const bus = createTopicBus<RevisionNotice>();
  let pending: RevisionNotice[] = [];

  const flush = () => {
    const batch = pending;
    pending = [];
    channel.send(TOPIC, encodeNotices(batch)).catch((thrown: unknown) => {
      log(`svc-cloud: telling replicas of ${batch.length} new revision(s) failed (their machines fetch them at their next poll): ${(thrown as Error).message}`);
    });
  };

  const readAgain = () => {
    const parts = bus.topics();
    if (parts.length === 0) return;
    options.current(parts).then(
      (notices) => notices.forEach((notice) => bus.publish(notice.partId, notice)),
      (thrown: unknown) => log(`svc-cloud: reading current revisions again failed: ${(thrown as Error).message}`),
    );
  };

  const stopHearing = channel.on(TOPIC, (body) => decodeNotices(body).forEach((notice) => bus.publish(notice.partId, notice)));
  const stopResync = channel.onResync(readAgain);
  return {
    publish(notice) {
      pending.push(notice);
      if (pending.length === 1) queueMicrotask(flush);
    },
    subscribe: bus.subscribe,
    listeners: bus.listeners,
    close() {
      stopHearing();
      stopResync();
    },
  };
}

/** Notices as lines of `part revision time`. */
export function encodeNotices(notices: readonly RevisionNotice[]): string {
  return notices.map((n) => `${n.partId} ${n.revision} ${n.time}`).join("\n");
}

/** The notices in `body`; a line that does not read as one is passed over. */
export function decodeNotices(body: string): RevisionNotice[] {
  const notices: RevisionNotice[] = [];
  for (const line of body.split("\n")) {
    const [partId, revision, time, extra] = line.split(" ");
    const notice = { partId: partId ?? "", revision: Number(revision), time: Number(time) };
    if (extra === undefined && notice.partId !== "" && Number.isSafeInteger(notice.revision) && Number.isSafeInteger(notice.time)) notices.push(notice);
  }
  return notices;
}

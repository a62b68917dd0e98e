// What one svc-cloud replica tells every replica (itself included): a topic and a text. On SQLite
// there is one process and the channel is this process's own (delivered at once, in order); on
// PostgreSQL it is the database's LISTEN/NOTIFY (postgres-channel.ts), so a push stream
// held by any replica hears an edit made through any other. A channel says nothing twice and keeps
// nothing: whoever listens and may have missed messages (the connection to the database was lost
// for a while) is told so by `onResync` and reads again what it depends on.
export interface ReplicaChannel {
  /** Hands `body` to every listener of `topic` on every replica; one replica's messages arrive in the order sent. */
  send(topic: string, body: string): Promise<void>;
  /** Calls `listener` with each body sent on `topic` until the returned function is called. */
  on(topic: string, listener: (body: string) => void): () => void;
  /** Calls `listener` each time messages may have been missed (the channel came back after a loss). */
  onResync(listener: () => void): () => void;
  /** Whether messages reach this replica now (false while its listening connection is lost). */
  listening(): boolean;
  close(): Promise<void>;
}

/** Listeners by topic, and those told of a resync: what every channel keeps on its receiving side. */
export interface ChannelListeners {
  add(topic: string, listener: (body: string) => void): () => void;
  addResync(listener: () => void): () => void;
  deliver(topic: string, body: string): void;
  resync(): void;
}

export function createChannelListeners(): ChannelListeners {
  const byTopic = new Map<string, Set<(body: string) => void>>();
  const resyncs = new Set<() => void>();
  return {
    add(topic, listener) {
      let set = byTopic.get(topic);
      if (set === undefined) byTopic.set(topic, (set = new Set()));
      set.add(listener);
      return () => void set!.delete(listener);
    },
    addResync(listener) {
      resyncs.add(listener);
      return () => void resyncs.delete(listener);
    },
    deliver(topic, body) {
      for (const listener of [...(byTopic.get(topic) ?? [])]) listener(body);
    },
    resync() {
      for (const listener of [...resyncs]) listener();
    },
  };
}

/** The channel of a svc-cloud that is the only one: what is sent is delivered in this process, at once. */
export function createLocalChannel(): ReplicaChannel {
  const listeners = createChannelListeners();
  return {
    send: async (topic, body) => listeners.deliver(topic, body),
    on: listeners.add,
    onResync: listeners.addResync,
    listening: () => true,
    close: async () => {},
  };
}

// How often one caller may put a line in the log: a few lines per address per minute, and a
// bound for everyone together, so a client repeating a failing call (with a new value each
// time, which de-duplication cannot fold) cannot fill the log and rotate away what came before.
// Lines held back are counted and the count rides on the next line written for that address.
export interface PeerLogLimitOptions {
  /** Lines written per address per window. Default 5. */
  readonly linesPerWindow?: number;
  /** Lines written per window from every address together. Default 100. */
  readonly totalLinesPerWindow?: number;
  /** Default 60 s. */
  readonly windowMs?: number;
  /** Addresses remembered; the oldest is forgotten first. Default 1024. */
  readonly maxPeers?: number;
  /** Milliseconds; injected by tests. */
  readonly now?: () => number;
}

export interface PeerLogLimit {
  /**
   * Whether a line about `peer` may be written now: undefined to drop it, else fields to add
   * to it (`held_back` with the count of lines dropped since the last written, and a note on
   * the last line before dropping starts).
   */
  admit(peer: string): Record<string, unknown> | undefined;
}

interface Window {
  end: number;
  written: number;
  heldBack: number;
}

export function createPeerLogLimit(options: PeerLogLimitOptions = {}): PeerLogLimit {
  const perPeer = options.linesPerWindow ?? 5;
  const total = options.totalLinesPerWindow ?? 100;
  const windowMs = options.windowMs ?? 60_000;
  const maxPeers = options.maxPeers ?? 1024;
  const now = options.now ?? Date.now;
  const peers = new Map<string, Window>();
  const all: Window = { end: 0, written: 0, heldBack: 0 };
  const note = `further lines from this address are held back for ${Math.round(windowMs / 1000)} s`;

  const current = (window: Window | undefined, at: number): Window => {
    if (window && at < window.end) return window;
    return { end: at + windowMs, written: 0, heldBack: window?.heldBack ?? 0 };
  };

  return {
    admit(peer) {
      const at = now();
      const everyone = current(all, at);
      Object.assign(all, everyone);
      const window = current(peers.get(peer), at);
      peers.delete(peer);
      peers.set(peer, window);
      if (peers.size > maxPeers) peers.delete(peers.keys().next().value!);
      if (window.written >= perPeer || all.written >= total) {
        window.heldBack++;
        return undefined;
      }
      window.written++;
      all.written++;
      const fields: Record<string, unknown> = {};
      if (window.heldBack > 0) fields.held_back = window.heldBack;
      window.heldBack = 0;
      if (window.written === perPeer) fields.note = note;
      return fields;
    },
  };
}

// How long a remote part waits before dialling again once it cannot be reached: its
// reconnect_interval first, doubling with each failure in a row up to a cap, each wait moved by
// up to a fifth either way, so that parts which lost the same network do not all dial at the same
// instant. Pure arithmetic with the randomness given, so it needs no timers.

/** The longest wait between two dials, unless the configured interval is longer still. */
export const RECONNECT_MAX_MS = 15_000;

export interface ReconnectBackoff {
  /** The wait before the next dial after one more failure. */
  next(): number;
  /** The part is connected: the next failure waits the first interval again. */
  reset(): void;
  /** Failures in a row. */
  readonly failures: number;
}

/** `random` gives numbers in [0, 1), as Math.random does. */
export function createReconnectBackoff(initialMs: number, random: () => number = Math.random, maxMs = RECONNECT_MAX_MS): ReconnectBackoff {
  const cap = Math.max(initialMs, maxMs);
  let failures = 0;
  return {
    next() {
      failures++;
      const base = Math.min(initialMs * Math.pow(2, Math.min(failures - 1, 30)), cap);
      return Math.round(base * (0.8 + 0.4 * random()));
    },
    reset() {
      failures = 0;
    },
    get failures() {
      return failures;
    },
  };
}

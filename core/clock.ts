// Time as the core sees it. XS has no setTimeout and tests need control of time, so every part
// of the core that waits or measures takes a Clock instead of reaching for globals.

export interface Clock {
  /** Milliseconds since an arbitrary epoch; only differences matter except for log timestamps. */
  now(): number;
  /** Calls `fn` once after `ms` milliseconds; returns a handle for `clearTimeout`. */
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Resolves after `ms` milliseconds of the clock. */
export function sleep(clock: Clock, ms: number): Promise<void> {
  return new Promise((resolve) => clock.setTimeout(resolve, ms));
}

/**
 * Calls `fn` every `ms` milliseconds of the clock, the first time after one period, until the
 * returned function is called. Each period starts when the previous call returned.
 */
export function every(clock: Clock, ms: number, fn: () => void): () => void {
  let stopped = false;
  let timer: unknown;
  const arm = () => {
    timer = clock.setTimeout(() => {
      if (stopped) return;
      try {
        fn();
      } finally {
        if (!stopped) arm();
      }
    }, ms);
  };
  arm();
  return () => {
    stopped = true;
    clock.clearTimeout(timer);
  };
}

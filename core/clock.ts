// Time as the core sees it. XS has no setTimeout and tests need control of time, so every part
// of the core that waits or measures takes a Clock instead of reaching for globals.

export interface Clock {
  /** Milliseconds since an arbitrary epoch; only differences matter except for log timestamps. */
  now(): number;
  /** Calls `fn` once after `ms` milliseconds; returns a handle for `clearTimeout`. */
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

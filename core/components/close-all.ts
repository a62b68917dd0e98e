// Closing many handles at once: each one is closed even when another fails, as a resource must
// release everything it holds.

/** Runs `close` on every item even when some fail, then throws the first failure. */
export function closeAll<T>(items: readonly T[], close: (item: T) => void): void {
  let first: unknown;
  let failed = false;
  for (const item of items) {
    try {
      close(item);
    } catch (thrown) {
      if (!failed) first = thrown;
      failed = true;
    }
  }
  if (failed) throw first;
}

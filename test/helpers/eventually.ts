// Bounded waiting for something a real process does in its own time: ask until the probe returns
// a value, every 50 ms, and fail with what was awaited (and the last thing seen) when the bound
// is reached. Tests wait this way and never assert how long anything took.
export interface EventuallyOptions {
  /** Default 20 s: generous, for a busy machine. */
  timeoutMs?: number;
  everyMs?: number;
}

export async function eventually<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  what: string,
  options: EventuallyOptions = {},
): Promise<T> {
  const { timeoutMs = 20_000, everyMs = 50 } = options;
  const giveUpAt = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const found = await probe();
      if (found !== undefined) return found;
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= giveUpAt) {
      const detail = lastError === undefined ? "" : ` (last error: ${String(lastError)})`;
      throw new Error(`gave up waiting for ${what}${detail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

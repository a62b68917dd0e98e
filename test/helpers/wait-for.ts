// Polls a condition until it holds, within a generous bound (tests never assert durations).
export async function waitFor(condition: () => boolean | Promise<boolean>, what = "the condition", timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

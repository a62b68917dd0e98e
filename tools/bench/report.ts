// The one shape every benchmark prints: `name: value unit (goal: ...)`.
export function report(name: string, value: number, unit: string, goal?: string): void {
  const shown = value >= 100 ? value.toFixed(0) : value >= 1 ? value.toFixed(2) : value.toPrecision(3);
  console.log(`${name}: ${shown} ${unit}${goal ? ` (goal: ${goal})` : ""}`);
}

/** Runs `fn` repeatedly for about `ms` milliseconds (after a warm-up) and returns calls per second. */
export function perSecond(fn: () => void, ms = 1000): number {
  const warmUntil = performance.now() + ms / 4;
  while (performance.now() < warmUntil) fn();
  let calls = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < 100; i++) fn();
    calls += 100;
    now = performance.now();
  }
  return (calls * 1000) / (now - start);
}

/** Nanoseconds per call of `fn`, measured over about `ms` milliseconds. */
export function nsPerCall(fn: () => void, ms = 1000): number {
  return 1e9 / perSecond(fn, ms);
}

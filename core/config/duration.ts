// Durations written the Go way ("10s", "1m30s", "500ms", "1.5h"), as the cloud settings of
// existing configurations write them.

const units: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 0.001, "µs": 0.001, ns: 0.000001 };
const part = /([0-9]+(?:\.[0-9]+)?)(h|ms|m|s|us|µs|ns)/g;

/** Whole milliseconds, or undefined when `text` is not a duration. */
export function parseDuration(text: string): number | undefined {
  let total = 0;
  let consumed = 0;
  for (const match of text.matchAll(part)) {
    if (match.index !== consumed) return undefined;
    total += Number(match[1]) * units[match[2]!]!;
    consumed += match[0].length;
  }
  return consumed === text.length && consumed > 0 ? Math.round(total) : undefined;
}

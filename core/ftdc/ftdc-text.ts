// FTDC readings as text: the time with its nanoseconds (RFC 3339, UTC) and each float32 value as
// the shortest decimal that reads back as the same float32.

/** "2026-11-29T07:05:16.123456789Z" */
export function formatFtdcTime(timeNs: bigint): string {
  const seconds = timeNs >= 0n ? timeNs / 1_000_000_000n : (timeNs - 999_999_999n) / 1_000_000_000n;
  const fraction = timeNs - seconds * 1_000_000_000n;
  const whole = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
  return `${whole}.${fraction.toString().padStart(9, "0")}Z`;
}

/** The shortest decimal of a float32 value: 0.1, not 0.10000000149011612. */
export function formatFloat32(value: number): string {
  if (!Number.isFinite(value)) return Number.isNaN(value) ? "NaN" : value > 0 ? "+Inf" : "-Inf";
  const exact = Math.fround(value);
  for (let digits = 1; digits < 9; digits++) {
    const text = exact.toPrecision(digits);
    if (Math.fround(Number(text)) === exact) return String(Number(text));
  }
  return String(Number(exact.toPrecision(9)));
}

/** Milliseconds since the epoch, for charts. */
export function ftdcTimeMs(timeNs: bigint): number {
  return Number(timeNs / 1000n) / 1000;
}

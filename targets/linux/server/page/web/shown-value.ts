// A value from the machine (a reading, a DoCommand answer) as one short line of text.
export function shownValue(value: unknown): string {
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : value.toFixed(3);
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value, (_key, v: unknown) => (typeof v === "number" && !Number.isInteger(v) ? Number(v.toFixed(3)) : v));
  } catch {
    return String(value);
  }
}

/** The message of anything thrown, for status, logs and messages that wrap it. */
export function errorMessage(thrown: unknown): string {
  if (thrown instanceof Error) return thrown.message || thrown.name;
  return String(thrown);
}

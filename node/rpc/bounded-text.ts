// Text that came from a request, cut to a size fit for a log line or an error: a caller can send
// megabytes as a resource name or an entity, and nothing it sends should be copied whole into
// the log or echoed back. What is cut says how large the original was.
/** How much of a request's value a log line keeps. */
export const LOGGED_VALUE_MAX_CHARS = 256;
/**
 * How much of an error message an answer carries (gRPC status message, error bodies): with the
 * note of the original size it stays within grpc-message's 1 KiB (grpc-message.ts).
 */
export const ERROR_MESSAGE_MAX_CHARS = 960;

/** `text` when it has at most `maxChars` characters; else its start and "… (N bytes)". */
export function boundText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let end = Math.max(0, maxChars);
  // Never split a surrogate pair: half a character is not text.
  if (end > 0 && isHighSurrogate(text.charCodeAt(end - 1))) end--;
  return `${text.slice(0, end)}… (${Buffer.byteLength(text)} bytes)`;
}

/** A value from a request as a log field: strings bounded, anything else turned to text first. */
export function loggedValue(value: unknown): string {
  return boundText(typeof value === "string" ? value : String(value), LOGGED_VALUE_MAX_CHARS);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

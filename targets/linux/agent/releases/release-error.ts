// The one error of fetching, downloading, identifying and installing releases. Its message says
// what failed and where (the URL, the HTTP status, the file), so a log line is enough to act on.
export class ReleaseError extends Error {
  override name = "ReleaseError";

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A short reason out of anything thrown, for messages that wrap it. */
export function reasonOf(error: unknown): string {
  if (error instanceof Error) {
    return error.message;
  }
  return String(error);
}

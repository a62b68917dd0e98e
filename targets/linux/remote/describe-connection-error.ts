// A connection's error in the words a status shows: the system's errno names read as what they
// mean ("connection refused (ECONNREFUSED)"), anything else (a certificate not trusted, a protocol
// broken) by its own message.
const words: Readonly<Record<string, string>> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ENOTFOUND: "no such host",
  EAI_AGAIN: "the host name could not be resolved now",
  ETIMEDOUT: "connection timed out",
};

/** A connection error in words: "connection refused (ECONNREFUSED)". */
export function describeConnectionError(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== undefined && words[code] !== undefined) return `${words[code]} (${code})`;
  return error.message;
}

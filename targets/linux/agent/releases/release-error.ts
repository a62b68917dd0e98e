// The one error of fetching, downloading, identifying and installing releases. Its message says
// what failed and where (the URL, the HTTP status, the file), so a log line is enough to act on.
export class ReleaseError extends Error {
  override name = "ReleaseError";
  /**
   * "mismatch": the artifact arrived whole but is not what its index entry describes (sha256 or
   * size), so downloading it again brings the same bytes; "failed": anything else.
   */
  readonly kind: "failed" | "mismatch";

  constructor(message: string, options?: { cause?: unknown; kind?: "failed" | "mismatch" }) {
    super(message, options);
    this.kind = options?.kind ?? "failed";
  }
}

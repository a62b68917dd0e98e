// A diagnostic option could not do its work for a reason the user can fix (a missing folder, a
// file that cannot be written); the message says which option and why.
export class DiagnosticsError extends Error {
  override name = "DiagnosticsError";
}

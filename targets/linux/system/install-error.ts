/** A service could not be installed; the message says which step and why. */
export class InstallError extends Error {
  override name = "InstallError";
}

/**
 * A server could not start listening where it was told: a bad bind address, a port or socket in
 * use, a unix socket path too long, unreadable TLS files. Startup stops and the message says why.
 */
export class ListenError extends Error {
  override name = "ListenError";
}

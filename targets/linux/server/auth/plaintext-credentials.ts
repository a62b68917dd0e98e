// Credentials (API keys and the tokens traded for them) sent in clear text can be read by anyone
// on the path, so they are accepted over plaintext only from this machine itself, unless the
// operator says otherwise with -allow-insecure-creds.
import { isLoopbackAddress, type Peer } from "../transport/index.js";

/** Why credentials from `peer` are refused, or undefined when they are acceptable. */
export function plaintextCredentialsProblem(peer: Peer, allowInsecureCreds: boolean): string | undefined {
  if (allowInsecureCreds || peer.secure || isLoopbackAddress(peer.address)) return undefined;
  const from = peer.address === "" ? "an unknown peer" : peer.address;
  return `credentials are not accepted over plaintext from ${from}: serve TLS (tls_cert_file, tls_key_file) or start svc-server with -allow-insecure-creds`;
}

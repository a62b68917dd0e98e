// Who is calling, for interceptors that decide by it (credentials over plaintext are accepted
// only from loopback peers): read with `context.values.get(peerKey)`.
import { createContextKey } from "@connectrpc/connect";
import type { HttpRequest } from "../../../../node/rpc/http-types.js";

export interface Peer {
  /** The remote IP address, as the socket reports it ("127.0.0.1", "::ffff:10.0.0.2"). */
  readonly address: string;
  /** True when the connection is encrypted (TLS, or DTLS for WebRTC). */
  readonly secure: boolean;
  /** The credentials the connection proved once for all its calls (a WebRTC connection's signaling call). */
  readonly grant?: ConnectionGrant;
}

/** The API key a connection authenticated with, checked on each of its calls against the keys in force. */
export interface ConnectionGrant {
  readonly keyId: string;
  readonly keyFingerprint: string;
}

/** What a peer is read from: a socket, or a connection of another kind that says the same. */
export interface PeerSource {
  readonly remoteAddress?: string;
  readonly encrypted?: boolean;
  readonly grant?: ConnectionGrant;
}

export const peerKey = createContextKey<Peer>({ address: "", secure: false }, { description: "svc peer" });

const loopback = /^(127\.|::1$|::ffff:127\.)/;

/** True for addresses that never leave the machine. */
export function isLoopbackAddress(address: string): boolean {
  return loopback.test(address);
}

/** The peer of a request on the API port: its address, and whether its connection is TLS. */
export function peerOfRequest(req: HttpRequest): Peer {
  // For HTTP/2 `socket` is a proxy to the session's socket, which reads through to it.
  return peerOfSocket(req.socket as { remoteAddress?: string; encrypted?: boolean });
}

/** The peer at the other end of a connection's socket. */
export function peerOfSocket(socket: PeerSource | undefined): Peer {
  const peer = { address: socket?.remoteAddress ?? "", secure: socket?.encrypted === true };
  return socket?.grant ? { ...peer, grant: socket.grant } : peer;
}

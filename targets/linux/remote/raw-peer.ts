// Which process really serves a resource that stands for one served elsewhere (a module's): its
// unary calls can then pass through as bytes (raw-unary.ts) instead of being decoded here and
// made again for the peer. Only the resource's builder says so; anything else is served here.
import type { UnixSocketTransport } from "./unix-socket-transport.js";

const peers = new WeakMap<object, UnixSocketTransport>();

/** Says that `resource` is served at the other end of `transport`, under the same name. */
export function markServedBy(resource: object, transport: UnixSocketTransport): void {
  peers.set(resource, transport);
}

/** The transport to the process serving `resource`, when another one does. */
export function peerServing(resource: object): UnixSocketTransport | undefined {
  return peers.get(resource);
}

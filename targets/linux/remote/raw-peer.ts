// Which process really serves a resource that stands for one served elsewhere (a module's, or a
// remote part's): its unary calls can then pass through as bytes (raw-unary.ts) instead of being
// decoded here and made again for the peer. Only the resource's builder says so; anything else is
// served here.
import type { RawUnaryCall } from "./raw-unary.js";

/** Whoever serves a resource elsewhere: one unary call as bytes goes to it. */
export interface RawPeer {
  rawUnary(call: RawUnaryCall): Promise<Uint8Array>;
}

const peers = new WeakMap<object, RawPeer>();
const names = new WeakMap<object, string>();

/**
 * Says that `resource` is served by `peer`: under `name` when the peer knows it by another name
 * than this machine does (a remote's resource), under the same name otherwise.
 */
export function markServedBy(resource: object, peer: RawPeer, name?: string): void {
  peers.set(resource, peer);
  if (name !== undefined) names.set(resource, name);
}

/** Whoever serves `resource`, when another process does. */
export function peerServing(resource: object): RawPeer | undefined {
  return peers.get(resource);
}

/** The name the peer knows `resource` by, when not the one it is called by here. */
export function nameServedUnder(resource: object): string | undefined {
  return names.get(resource);
}

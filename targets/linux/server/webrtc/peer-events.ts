// What either side of a WebRTC connection hears from libdatachannel, wired once: its own session
// description (offer or answer) when made, its candidates as found (in the "candidate:..." form
// the Viam wire carries, without "a="), the end of gathering, and the connection failing or
// closing, which closes it.
import type { PeerConnection } from "node-datachannel";

/** libdatachannel's binding, loaded when the first offer comes (webrtc-library.ts). */
export type DataChannelLibrary = typeof import("node-datachannel");

export interface SessionDescription {
  readonly type: string;
  readonly sdp: string;
}

export interface IceCandidateText {
  readonly candidate: string;
  readonly sdpMid: string;
}

export interface PeerEvents {
  onCandidate(candidate: IceCandidateText): void;
  onGatheringDone(): void;
}

/** Follows `pc`; `close` is called with why when the connection fails or closes. Resolves with its local description. */
export function followPeerEvents(pc: PeerConnection, events: PeerEvents, close: (why: string) => void): Promise<SessionDescription> {
  const local = new Promise<SessionDescription>((resolve) => {
    pc.onLocalDescription((sdp, type) => resolve({ type, sdp }));
  });
  pc.onLocalCandidate((candidate, mid) => events.onCandidate({ candidate: candidate.replace(/^a=/, ""), sdpMid: mid }));
  pc.onGatheringStateChange((state) => {
    if (state === "complete") events.onGatheringDone();
  });
  pc.onStateChange((state) => {
    if (state === "failed" || state === "closed") close(`connection ${state}`);
  });
  return local;
}

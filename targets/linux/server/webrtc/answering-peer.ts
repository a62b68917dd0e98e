// The answering side of one WebRTC connection, on libdatachannel (node-datachannel): takes the
// caller's offer, makes the answer, trades ICE candidates, and opens the two data channels the
// Viam clients negotiate in advance ("data", id 0, for calls; "negotiation", id 1, for
// renegotiation, which a data-only server does not need and leaves unread).
import type { DataChannel, PeerConnection } from "node-datachannel";
import { followPeerEvents, type DataChannelLibrary, type IceCandidateText, type SessionDescription } from "./peer-events.js";

export type { DataChannelLibrary, IceCandidateText, SessionDescription } from "./peer-events.js";

export interface AnsweringPeerOptions {
  readonly offer: SessionDescription;
  /** ICE servers in libdatachannel's form ("stun:host:port", "turn:user:password@host:port"). */
  readonly iceServers: readonly string[];
  /** A local candidate, to be trickled to the caller. */
  onCandidate(candidate: IceCandidateText): void;
  /** Every local candidate has been told. */
  onGatheringDone(): void;
  /** The "data" channel is open. */
  onOpen(channel: DataChannel): void;
  /** The connection failed or closed, or the data channel closed. */
  onClosed(why: string): void;
}

export interface AnsweringPeer {
  /** The answer, once libdatachannel has made it. */
  readonly answer: Promise<SessionDescription>;
  /** The answer with every candidate in it, once gathering is over (for callers that disable trickle). */
  fullAnswer(): SessionDescription | undefined;
  addCandidate(candidate: string, sdpMid: string | undefined): void;
  /** The caller's address as ICE selected it, once connected. */
  remoteAddress(): string;
  close(): void;
}

let peerCount = 0;

// The caller's own candidates are left out of its offer. The machine would otherwise start ICE
// checks at once, and ICE could connect, and the DTLS handshake start, before the caller has read
// the answer and its certificate fingerprint: the caller then refuses the machine's certificate
// ("unknown CA"). A trickling caller (every Viam SDK, every browser) sends the same candidates with
// CallUpdate once it has applied the answer; one that does not trickle is reached through the
// checks it sends once it has the answer (ICE's peer-reflexive candidates).
function offerWithoutCandidates(sdp: string): string {
  return sdp.replace(/^a=candidate:.*\r?\n/gm, "").replace(/^a=end-of-candidates\r?\n/gm, "");
}

export function createAnsweringPeer(library: DataChannelLibrary, options: AnsweringPeerOptions): AnsweringPeer {
  const pc: PeerConnection = new library.PeerConnection(`svc-${++peerCount}`, { iceServers: [...options.iceServers] });
  let closed = false;
  let data: DataChannel | undefined;
  let negotiation: DataChannel | undefined;
  const close = (why: string) => {
    if (closed) return;
    closed = true;
    options.onClosed(why);
    try {
      data?.close();
      negotiation?.close();
      pc.close();
    } catch {
      // Closing what libdatachannel already closed.
    }
  };

  const answer = followPeerEvents(pc, options, close);
  pc.setRemoteDescription(offerWithoutCandidates(options.offer.sdp), options.offer.type as "offer");
  // After the offer: made before it, they would make libdatachannel offer a session of its own.
  data = pc.createDataChannel("data", { negotiated: true, id: 0 });
  negotiation = pc.createDataChannel("negotiation", { negotiated: true, id: 1 });
  const opened = data;
  data.onOpen(() => options.onOpen(opened));
  data.onClosed(() => close("data channel closed"));

  return {
    answer,
    fullAnswer() {
      const description = pc.gatheringState() === "complete" ? pc.localDescription() : null;
      return description ?? undefined;
    },
    addCandidate(candidate, sdpMid) {
      if (closed || candidate === "") return;
      pc.addRemoteCandidate(candidate, sdpMid ?? "0");
    },
    remoteAddress() {
      return closed ? "" : (pc.getSelectedCandidatePair()?.remote.address ?? "");
    },
    close: () => close("closed by the server"),
  };
}

// The offering side of one WebRTC connection, on libdatachannel (node-datachannel), as the Viam
// clients make it: the two data channels negotiated in advance ("data", id 0, for calls;
// "negotiation", id 1, which a data-only peer leaves unread), the offer, candidates trickled as
// they are found, the answer and the answering side's candidates taken (those arriving before
// the answer are held until it is in).
import type { DataChannel, PeerConnection } from "node-datachannel";
import { followPeerEvents, type DataChannelLibrary, type IceCandidateText, type SessionDescription } from "../peer-events.js";

export interface CallingPeerOptions {
  /** ICE servers in libdatachannel's form ("stun:host:port", "turn:user:password@host:port"). */
  readonly iceServers: readonly string[];
  /** A local candidate, to be sent to the answering side. */
  onCandidate(candidate: IceCandidateText): void;
  /** Every local candidate has been told. */
  onGatheringDone(): void;
  /** The "data" channel is open. */
  onOpen(channel: DataChannel): void;
  /** The connection failed or closed, or the data channel closed; told once. */
  onClosed(why: string): void;
}

export interface CallingPeer {
  /** The offer, once libdatachannel has made it. */
  readonly offer: Promise<SessionDescription>;
  setAnswer(answer: SessionDescription): void;
  addCandidate(candidate: string, sdpMid: string | undefined): void;
  close(): void;
}

let peerCount = 0;

export function createCallingPeer(library: DataChannelLibrary, options: CallingPeerOptions): CallingPeer {
  const pc: PeerConnection = new library.PeerConnection(`svc-caller-${++peerCount}`, { iceServers: [...options.iceServers] });
  let closed = false;
  let early: { candidate: string; sdpMid: string }[] | undefined = [];
  const channels: DataChannel[] = [];
  const close = (why: string) => {
    if (closed) return;
    closed = true;
    options.onClosed(why);
    try {
      for (const channel of channels) channel.close();
      pc.close();
    } catch {
      // Closing what libdatachannel already closed.
    }
  };

  const offer = followPeerEvents(pc, options, close);
  // Making the channels makes the offer.
  const data = pc.createDataChannel("data", { negotiated: true, id: 0 });
  channels.push(data, pc.createDataChannel("negotiation", { negotiated: true, id: 1 }));
  data.onOpen(() => options.onOpen(data));
  data.onClosed(() => close("data channel closed"));

  return {
    offer,
    setAnswer(answer) {
      if (closed || early === undefined) return;
      pc.setRemoteDescription(answer.sdp, "answer");
      for (const { candidate, sdpMid } of early) pc.addRemoteCandidate(candidate, sdpMid);
      early = undefined;
    },
    addCandidate(candidate, sdpMid) {
      if (closed || candidate === "") return;
      if (early) early.push({ candidate, sdpMid: sdpMid ?? "0" });
      else pc.addRemoteCandidate(candidate, sdpMid ?? "0");
    },
    close: () => close("closed by the caller"),
  };
}

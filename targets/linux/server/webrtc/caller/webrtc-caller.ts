// svc-server calling another machine over WebRTC, the signaling through a SignalingService (svc-
// cloud's): the ICE servers it gives, an offer with the two negotiated data channels
// (calling-peer.ts), candidates trickled both ways (call-signaling.ts), and, once the "data"
// channel opens, unary calls as bytes on it (channel-client.ts). Everything up to the open channel
// is bounded by one connect deadline on the injected clock. Once made, the connection going away
// (the channel or the peer connection closing or failing) fails the calls in flight UNAVAILABLE
// and is told to `onGone`, once; closing it tells nothing.
import { ConnectError } from "@connectrpc/connect";
import type { DataChannel } from "node-datachannel";
import { Code, type Clock } from "../../../../../core/index.js";
import type { RawUnaryCall } from "../../../remote/index.js";
import type { DataChannelLibrary } from "../answering-peer.js";
import { createCallSignaling, iceServersFor, type Signaling } from "./call-signaling.js";
import { createCallingPeer, type CallingPeer } from "./calling-peer.js";
import { createChannelClient, type ChannelClient } from "./channel-client.js";

/** How long a connection may take to open, signaling included: Viam's offer deadline. */
export const WEBRTC_CONNECT_DEADLINE_MS = 10_000;

export interface WebRtcDialOptions {
  /** libdatachannel's binding, loaded when first needed (webrtc-library.ts). */
  readonly library: () => Promise<DataChannelLibrary>;
  readonly signaling: Signaling;
  /** The machine called, as the signaling service knows it (its fqdn). */
  readonly host: string;
  /** Who is called, in messages ("remote pi"). */
  readonly peer: string;
  readonly clock: Clock;
  readonly connectDeadlineMs?: number;
  /** Gives up the dial. */
  readonly signal?: AbortSignal;
  /** The connection went away after it was made, and why; told once. */
  onGone(why: string): void;
}

/** An open WebRTC connection to another machine, for unary calls. */
export interface WebRtcLink {
  call(call: RawUnaryCall): Promise<Uint8Array>;
  close(): void;
}

/** Resolves once the "data" channel is open; rejects with why it could not be made (DEADLINE_EXCEEDED past the deadline). */
export async function dialWebRtc(options: WebRtcDialOptions): Promise<WebRtcLink> {
  const { clock } = options;
  const deadlineMs = options.connectDeadlineMs ?? WEBRTC_CONNECT_DEADLINE_MS;
  // Ends the signaling however the dial ends, and the connection if it never opened.
  const giveUp = new AbortController();
  const late = new ConnectError(`${options.peer} did not connect over WebRTC within ${deadlineMs} ms`, Code.DeadlineExceeded);
  const timer = clock.setTimeout(() => giveUp.abort(late), deadlineMs);
  const stop = () => giveUp.abort(ConnectError.from(options.signal?.reason, Code.Canceled));
  options.signal?.addEventListener("abort", stop, { once: true });
  try {
    if (options.signal?.aborted) stop();
    const library = await whileWaiting(options.library(), giveUp.signal);
    const iceServers = await iceServersFor(options.signaling, options.host, giveUp.signal);
    return await connect(library, iceServers, options, giveUp);
  } catch (thrown) {
    // Given up (the deadline, or the signal): that is why, whatever the signaling made of it.
    const reason: unknown = giveUp.signal.aborted ? giveUp.signal.reason : undefined;
    giveUp.abort();
    throw reason instanceof ConnectError ? reason : ConnectError.from(thrown, Code.Unavailable);
  } finally {
    clock.clearTimeout(timer);
    options.signal?.removeEventListener("abort", stop);
  }
}

/** The offer made, signaled and answered, up to the open channel. */
function connect(library: DataChannelLibrary, iceServers: string[], options: WebRtcDialOptions, giveUp: AbortController): Promise<WebRtcLink> {
  return new Promise((resolve, reject) => {
    let link: OpenLink | undefined;
    const signaling = createCallSignaling({
      signaling: options.signaling,
      host: options.host,
      signal: giveUp.signal,
      onAnswer: (answer) => peer.setAnswer(answer),
      onCandidate: (candidate) => peer.addCandidate(candidate.candidate, candidate.sdpMid),
    });
    const peer: CallingPeer = createCallingPeer(library, {
      iceServers,
      onCandidate: (candidate) => signaling.candidate(candidate),
      onGatheringDone: () => signaling.done(),
      onOpen(channel) {
        link = openLink(channel, peer, options, giveUp);
        resolve(link);
      },
      onClosed(why) {
        if (link) link.gone(why);
        else reject(new ConnectError(`the WebRTC connection to ${options.peer} ${why} before it opened`, Code.Unavailable));
      },
    });
    giveUp.signal.addEventListener(
      "abort",
      () => {
        if (link) return;
        reject(giveUp.signal.reason);
        peer.close();
      },
      { once: true },
    );
    // After the channel opens, the Call's end changes nothing: it ends once the answering side has told every candidate.
    void peer.offer
      .then((offer) => signaling.offer(offer))
      .catch((thrown: unknown) => {
        if (link) return;
        reject(thrown);
        peer.close();
      });
  });
}

interface OpenLink extends WebRtcLink {
  gone(why: string): void;
}

function openLink(channel: DataChannel, peer: CallingPeer, options: WebRtcDialOptions, giveUp: AbortController): OpenLink {
  let closing = false;
  const client: ChannelClient = createChannelClient({ peer: options.peer, send: (frame) => void channel.sendMessageBinary(frame) });
  channel.onMessage((message) => {
    if (typeof message !== "string") client.receive(message instanceof ArrayBuffer ? new Uint8Array(message) : message);
  });
  return {
    call: (call) => client.call(call),
    close() {
      closing = true;
      client.close("it was closed");
      giveUp.abort();
      peer.close();
    },
    gone(why) {
      client.close(why);
      giveUp.abort();
      if (!closing) options.onGone(why);
    },
  };
}

/** `promise`, or the abort's reason first. */
function whileWaiting<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

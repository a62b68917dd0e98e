// One offer answered: the answer and the machine's candidates queued for the signaling call that
// brought the offer (the answer first, candidates found before it held back until it is out; all
// of them in the answer for a caller that does not trickle), the caller's candidates taken, and,
// once the data channel opens, the connection served. An exchange that has not connected by its
// deadline is closed.
import { createWritableIterable, type WritableIterable } from "@connectrpc/connect/protocol";
import { randomUUID } from "node:crypto";
import type { Clock, LoggerLike } from "../../../../core/index.js";
import type { ConnectionGrant, PeerLogLimit, PortCalls } from "../transport/index.js";
import { createAnsweringPeer, type AnsweringPeer, type DataChannelLibrary, type IceCandidateText, type SessionDescription } from "./answering-peer.js";
import type { ConnectionSlot } from "./connection-slots.js";
import { serveWebRtcConnection, type WebRtcConnection } from "./webrtc-connection.js";

/** What an exchange tells its caller, in order: the answer, then candidates; the iterable ends when there are no more. */
export type ExchangeEvent = { readonly answer: SessionDescription } | { readonly candidate: IceCandidateText };

export interface CallExchange {
  readonly uuid: string;
  readonly events: AsyncIterable<ExchangeEvent>;
  addCandidate(candidate: string, sdpMid: string | undefined): void;
  /** The caller gave up: a connection not yet made is dropped. */
  fail(why: string): void;
  close(): void;
}

/** Who offers: what its signaling call authenticated as, its address, and whether it trickles candidates. */
export interface Caller {
  readonly grant: ConnectionGrant | undefined;
  readonly address: string;
  readonly trickle: boolean;
}

export interface ExchangeNeeds {
  readonly library: DataChannelLibrary;
  readonly slot: ConnectionSlot;
  readonly calls: () => PortCalls;
  readonly maxMessageBytes: () => number;
  readonly iceServers: readonly string[];
  readonly authenticateApiToken: (token: string) => Promise<ConnectionGrant | undefined>;
  readonly clock: Clock;
  readonly logger: LoggerLike;
  readonly dropLines: PeerLogLimit;
  readonly connectDeadlineMs: number;
  /** The exchange is over (its connection closed, or never made). */
  readonly onOver: (uuid: string) => void;
}

export function startCallExchange(offer: SessionDescription, caller: Caller, needs: ExchangeNeeds): CallExchange {
  const { slot, clock, logger } = needs;
  const uuid = randomUUID();
  const events: WritableIterable<ExchangeEvent> = createWritableIterable();
  const emit = (event: ExchangeEvent) => void events.write(event).catch(() => {});
  let early: IceCandidateText[] | undefined = [];
  let connection: WebRtcConnection | undefined;
  const deadline = clock.setTimeout(() => peer.close(), needs.connectDeadlineMs);

  const peer: AnsweringPeer = createAnsweringPeer(needs.library, {
    offer,
    iceServers: needs.iceServers,
    onCandidate: (candidate) => caller.trickle && (early ? early.push(candidate) : emit({ candidate })),
    onGatheringDone() {
      const full = peer.fullAnswer();
      if (!caller.trickle && full) emit({ answer: full });
      events.close();
    },
    onOpen(channel) {
      clock.clearTimeout(deadline);
      slot.open();
      const address = peer.remoteAddress();
      connection = serveWebRtcConnection({
        channel,
        calls: needs.calls(),
        address,
        grant: caller.grant,
        maxMessageBytes: needs.maxMessageBytes(),
        authenticateApiToken: needs.authenticateApiToken,
        onDropped(why) {
          const extra = needs.dropLines.admit(address);
          if (extra) logger.debug("WebRTC frame dropped", { peer: address, why, ...extra });
        },
      });
      logger.info("WebRTC connection open", { peer: address, uuid });
    },
    onClosed(why) {
      clock.clearTimeout(deadline);
      if (slot.state === "open") logger.info("WebRTC connection closed", { uuid, why });
      else logger.debug("WebRTC connection not made", { uuid, why });
      slot.close();
      connection?.close();
      events.close();
      needs.onOver(uuid);
    },
  });
  if (caller.trickle) {
    void peer.answer.then((description) => {
      emit({ answer: description });
      for (const candidate of early ?? []) emit({ candidate });
      early = undefined;
    });
  }

  return {
    uuid,
    events,
    addCandidate: (candidate, sdpMid) => peer.addCandidate(candidate, sdpMid),
    // Once connected, the signaling call has done its work: its end changes nothing.
    fail(why) {
      if (slot.state !== "pending") return;
      logger.debug("WebRTC call given up by the caller", { uuid, why });
      peer.close();
    },
    close: () => peer.close(),
  };
}

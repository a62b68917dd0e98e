// The machine's answering side of WebRTC: each accepted offer becomes an exchange
// (call-exchange.ts) holding one of the bounded connection slots (connection-slots.ts), findable
// by its uuid for the caller's updates while it lasts, and a while after.
import type { Clock, LoggerLike } from "../../../../core/index.js";
import type { ConnectionGrant, PeerLogLimit, PortCalls } from "../transport/index.js";
import type { SessionDescription } from "./answering-peer.js";
import { startCallExchange, type CallExchange, type Caller } from "./call-exchange.js";
import { createConnectionSlots } from "./connection-slots.js";
import { loadDataChannelLibrary } from "./webrtc-library.js";

export type { CallExchange, Caller, ExchangeEvent } from "./call-exchange.js";

export interface WebRtcAnswererOptions {
  /** The port's calls (read when a connection opens: the port is made after the signaling service). */
  calls(): PortCalls;
  maxMessageBytes(): number;
  readonly iceServers: readonly string[];
  authenticateApiToken(token: string): Promise<ConnectionGrant | undefined>;
  readonly clock: Clock;
  readonly logger: LoggerLike;
  /** Bounds what dropped frames log. */
  readonly dropLines: PeerLogLimit;
  /** Default 64. */
  readonly maxConnections?: number;
  /** Default 16. */
  readonly maxPending?: number;
  /** Default 4. */
  readonly maxPendingPerCaller?: number;
  /** Default 10 s, Viam's offer deadline. */
  readonly connectDeadlineMs?: number;
}

export interface WebRtcAnswerer {
  /** Starts answering `offer`; throws RESOURCE_EXHAUSTED past the bounds, UNAVAILABLE when this machine cannot do WebRTC. */
  answer(offer: SessionDescription, caller: Caller): Promise<CallExchange>;
  exchange(uuid: string): CallExchange | undefined;
  close(): void;
}

// Exchanges over lately are remembered: a caller's last candidates or "done" can arrive after
// its connection closed, and are taken without effect instead of refused.
const recentlyOver = 256;

export function createWebRtcAnswerer(options: WebRtcAnswererOptions): WebRtcAnswerer {
  const slots = createConnectionSlots({
    maxConnections: options.maxConnections ?? 64,
    maxPending: options.maxPending ?? 16,
    maxPendingPerCaller: options.maxPendingPerCaller ?? 4,
  });
  const exchanges = new Map<string, CallExchange>();
  const recent = new Set<string>();
  const onOver = (uuid: string) => {
    exchanges.delete(uuid);
    recent.add(uuid);
    if (recent.size > recentlyOver) recent.delete(recent.values().next().value!);
  };

  return {
    async answer(offer, caller) {
      slots.check(caller.address);
      const library = await loadDataChannelLibrary();
      slots.check(caller.address);
      const exchange = startCallExchange(offer, caller, {
        ...options,
        library,
        slot: slots.take(caller.address),
        connectDeadlineMs: options.connectDeadlineMs ?? 10_000,
        onOver,
      });
      exchanges.set(exchange.uuid, exchange);
      return exchange;
    },
    exchange: (uuid) => exchanges.get(uuid) ?? (recent.has(uuid) ? over(uuid) : undefined),
    close() {
      for (const exchange of [...exchanges.values()]) exchange.close();
    },
  };
}

// An exchange already over: what it is told changes nothing.
function over(uuid: string): CallExchange {
  return { uuid, events: { async *[Symbol.asyncIterator]() {} }, addCandidate() {}, fail() {}, close() {} };
}

// What the signaling API asks of svc-cloud's relay, whichever way it is kept: one relay in this
// process (SQLite: svc-cloud is one process), or the relays of several replicas finding each
// other's machines through the store and passing calls over the replicas' channel
// (replicated-signaling.ts). A call reaching any replica reaches the machine wherever it answers.
import type { AnswererOptions, Answerer, AnsweringMachine, CallHandle, CallOffer, SignalingRelay } from "./signaling-relay.js";
import type { FromCaller } from "./signaling-messages.js";

export interface Signaling {
  /** Registers a machine's Answer stream; an older stream of the same part is ended, at whichever replica it is. */
  attach(options: AnswererOptions): Promise<Answerer>;
  /** The machine answering for `host`, at any replica. */
  answererFor(host: string): Promise<AnsweringMachine | undefined>;
  /** Offers a call to the machine answering `offer.host`: NOT_FOUND when none does, RESOURCE_EXHAUSTED past a limit. */
  call(offer: CallOffer): Promise<CallHandle>;
  /** A caller's update for its call `uuid` on `host`: NOT_FOUND unless it is that caller's call there. */
  update(uuid: string, caller: string, host: string, update: FromCaller): Promise<void>;
  /** What this replica holds, for diagnostics and tests. */
  counts(): { answerers: number; calls: number; ended: number };
  close(): Promise<void>;
}

/** The relay of a svc-cloud that is the only one. */
export function localSignaling(relay: SignalingRelay): Signaling {
  return {
    attach: async (options) => relay.attach(options),
    answererFor: async (host) => relay.answererFor(host),
    call: async (offer) => relay.call(offer),
    update: async (uuid, caller, host, update) => relay.update(uuid, caller, host, update),
    counts: () => relay.counts(),
    close: async () => {},
  };
}

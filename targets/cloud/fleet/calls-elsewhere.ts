// The caller's side of calls passed to another replica of svc-cloud (replicated-signaling.ts): the
// messages replicas exchange about a call, each call's queue for its caller, and the bounds that
// keep a call from waiting forever on a replica that went away: the other replica must take the
// offer within ACCEPT_MS, an update must be answered within ACCEPT_MS, and no call outlives the
// longest exchange the relay allows by more than a little. A caller has at most `callsPerCaller`
// calls passed on from this replica at once.
import { Code, SvcError, type Clock } from "../../../core/index.js";
import { createMessageQueue, type MessageQueue } from "./message-queue.js";
import type { CallHandle, CallOffer, RelayLimits } from "./signaling-relay.js";
import type { FromCaller, RelayStatus, ToCaller } from "./signaling-messages.js";

/** How long another replica has to take an offer, or to answer an update. */
export const ACCEPT_MS = 5000;
/** What a call passed on may take beyond the relay's longest exchange before it is given up. */
const EXCHANGE_SLACK_MS = 10_000;

type Addressed<T> = T & { to: string; from: string };

/** What one replica tells another about a call. */
export type SignalEnvelope = Addressed<
  | { kind: "offer"; uuid: string; host: string; caller: string; sdp: string; disableTrickle: boolean }
  | { kind: "accepted"; uuid: string }
  | { kind: "toCaller"; uuid: string; message: ToCaller }
  | { kind: "ended"; uuid: string; error?: RelayStatus }
  | { kind: "hangUp"; uuid: string }
  | { kind: "update"; reply: string; uuid: string; caller: string; host: string; update: FromCaller }
  | { kind: "updated"; reply: string; error?: RelayStatus }
  | { kind: "replaced"; partId: string }
>;

export interface CallsElsewhereOptions {
  me: string;
  clock: Clock;
  send: (envelope: SignalEnvelope) => void;
  limits: Pick<RelayLimits, "exchangeMaxMs" | "offerDeadlineMs" | "callsPerCaller">;
}

export interface CallsElsewhere {
  call(replica: string, offer: CallOffer & { uuid: string }): CallHandle;
  update(replica: string, update: { uuid: string; caller: string; host: string; update: FromCaller }): Promise<void>;
  /** A message another replica sent here about a call or an update. */
  heard(envelope: SignalEnvelope): void;
  count(): number;
  /** Ends every call passed on from here (UNAVAILABLE). */
  close(): void;
}

interface Passed {
  replica: string;
  caller: string;
  queue: MessageQueue<ToCaller>;
  timers: unknown[];
}

export function createCallsElsewhere(options: CallsElsewhereOptions): CallsElsewhere {
  const { me, clock, send, limits } = options;
  const calls = new Map<string, Passed>();
  const callsOf = new Map<string, number>();
  const replies = new Map<string, { settle: (error?: SvcError) => void }>();
  let nextReply = 0;

  const finish = (uuid: string, error?: SvcError) => {
    const call = calls.get(uuid);
    if (call === undefined) return;
    calls.delete(uuid);
    for (const timer of call.timers) clock.clearTimeout(timer);
    const left = (callsOf.get(call.caller) ?? 1) - 1;
    if (left <= 0) callsOf.delete(call.caller);
    else callsOf.set(call.caller, left);
    call.queue.end(error);
  };

  return {
    call(replica, offer) {
      const held = callsOf.get(offer.caller) ?? 0;
      if (held >= limits.callsPerCaller) throw new SvcError(Code.ResourceExhausted, `this caller has ${held} calls being set up, the most one caller may; wait for one to end`);
      const { uuid } = offer;
      const call: Passed = { replica, caller: offer.caller, queue: createMessageQueue(), timers: [] };
      calls.set(uuid, call);
      callsOf.set(offer.caller, held + 1);
      call.timers.push(clock.setTimeout(() => finish(uuid, new SvcError(Code.Unavailable, "the replica holding the machine did not take the call; try again")), ACCEPT_MS));
      call.timers.push(clock.setTimeout(() => finish(uuid, new SvcError(Code.DeadlineExceeded, "the call was not set up in time")), limits.offerDeadlineMs + limits.exchangeMaxMs + EXCHANGE_SLACK_MS));
      send({ to: replica, from: me, kind: "offer", uuid, host: offer.host, caller: offer.caller, sdp: offer.sdp, disableTrickle: offer.disableTrickle });
      return {
        uuid,
        toCaller: call.queue,
        hangUp() {
          if (!calls.has(uuid)) return;
          send({ to: replica, from: me, kind: "hangUp", uuid });
          finish(uuid);
        },
      };
    },
    update(replica, update) {
      const reply = `${me}.${++nextReply}`;
      return new Promise<void>((resolve, reject) => {
        const timer = clock.setTimeout(() => settle(new SvcError(Code.Unavailable, "the replica holding the machine did not answer; try again")), ACCEPT_MS);
        const settle = (error?: SvcError) => {
          clock.clearTimeout(timer);
          replies.delete(reply);
          if (error === undefined) resolve();
          else reject(error);
        };
        replies.set(reply, { settle });
        send({ to: replica, from: me, kind: "update", reply, ...update });
      });
    },
    heard(e) {
      if (e.kind === "updated") return replies.get(e.reply)?.settle(e.error && new SvcError(e.error.code, e.error.message));
      if (e.kind !== "accepted" && e.kind !== "toCaller" && e.kind !== "ended") return;
      const call = calls.get(e.uuid);
      // Only the replica the call was passed to speaks for it.
      if (call === undefined || call.replica !== e.from) return;
      if (e.kind === "accepted") return clock.clearTimeout(call.timers[0]);
      if (e.kind === "toCaller") return call.queue.push(e.message);
      finish(e.uuid, e.error && new SvcError(e.error.code, e.error.message));
    },
    count: () => calls.size,
    close() {
      for (const uuid of [...calls.keys()]) finish(uuid, new SvcError(Code.Unavailable, "svc-cloud is stopping"));
      for (const { settle } of [...replies.values()]) settle(new SvcError(Code.Unavailable, "svc-cloud is stopping"));
    },
  };
}

// The machine's side of calls passed here by other replicas of svc-cloud (replicated-signaling.ts):
// an offer from another replica's caller is made to this replica's relay as that caller's, what the
// machine says goes back to the replica the call came from, and so does how the call ended; a
// hang-up from there ends it here, and an update is checked by the relay and answered.
import { Code, SvcError } from "../../../core/index.js";
import type { SignalEnvelope } from "./calls-elsewhere.js";
import type { CallHandle, SignalingRelay } from "./signaling-relay.js";

export interface CallsServedOptions {
  me: string;
  relay: SignalingRelay;
  send: (envelope: SignalEnvelope) => void;
}

export interface CallsServed {
  offer(envelope: Extract<SignalEnvelope, { kind: "offer" }>): void;
  update(envelope: Extract<SignalEnvelope, { kind: "update" }>): void;
  hangUp(uuid: string): void;
}

export function createCallsServed(options: CallsServedOptions): CallsServed {
  const { me, relay, send } = options;
  /** Calls offered here by other replicas' callers, by uuid. */
  const served = new Map<string, CallHandle>();

  /** Sends the caller's replica what the machine says, then how the call ended. */
  const follow = async (from: string, uuid: string, handle: CallHandle) => {
    const never = new AbortController().signal;
    for (;;) {
      const next = await handle.toCaller.take(never);
      if (next.kind === "message") {
        send({ to: from, from: me, kind: "toCaller", uuid, message: next.message });
        continue;
      }
      served.delete(uuid);
      return send({ to: from, from: me, kind: "ended", uuid, error: next.error && statusOf(next.error) });
    }
  };

  return {
    offer(e) {
      let handle: CallHandle;
      try {
        handle = relay.call({ host: e.host, caller: e.caller, sdp: e.sdp, disableTrickle: e.disableTrickle, uuid: e.uuid });
      } catch (thrown) {
        return send({ to: e.from, from: me, kind: "ended", uuid: e.uuid, error: statusOf(thrown) });
      }
      served.set(e.uuid, handle);
      send({ to: e.from, from: me, kind: "accepted", uuid: e.uuid });
      void follow(e.from, e.uuid, handle);
    },
    update(e) {
      try {
        relay.update(e.uuid, e.caller, e.host, e.update);
        send({ to: e.from, from: me, kind: "updated", reply: e.reply });
      } catch (thrown) {
        send({ to: e.from, from: me, kind: "updated", reply: e.reply, error: statusOf(thrown) });
      }
    },
    hangUp: (uuid) => served.get(uuid)?.hangUp(),
  };
}

/** A thrown error as the status another replica is told. */
function statusOf(thrown: unknown): { code: Code; message: string } {
  return thrown instanceof SvcError ? { code: thrown.code, message: thrown.message } : { code: Code.Internal, message: "the call failed at the replica holding the machine" };
}

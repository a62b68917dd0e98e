// The caller's side of `proto.rpc.webrtc.v1.SignalingService`: Call (an offer to the machine named
// in `rpc-host`, answered on the same stream with the machine's answer and candidates),
// CallUpdate (the caller's own candidates, done or error, for its call's uuid) and
// OptionalWebRTCConfig (the ICE servers to offer with). Who may call which machine is
// signaling-access.ts's; the calls themselves live in the relay (fleet/signaling-relay.ts).
// A Call ends OK once the machine says done, with the machine's error, DEADLINE_EXCEEDED when
// the machine does not answer in time, or UNAVAILABLE when it goes offline; a caller going away
// first is told to the machine as CANCELLED.
import type { ServiceImpl } from "@connectrpc/connect";
import { Code, SvcError } from "../../../core/index.js";
import type { SignalingService } from "../../../proto/gen/proto/rpc/webrtc/v1/signaling_pb.js";
import { callerOf } from "../server/caller.js";
import type { CloudContext } from "../server/cloud-context.js";
import { calledHost, reachableMachine } from "./signaling-access.js";
import { callResponseOf, fromCallUpdate, MAX_SDP_CHARS, webRtcConfig } from "./signaling-wire.js";

function checkOffer(sdp: string): void {
  if (sdp === "") throw new SvcError(Code.InvalidArgument, "sdp: the offer is empty");
  if (sdp.length > MAX_SDP_CHARS) throw new SvcError(Code.InvalidArgument, `sdp: an offer is at most ${MAX_SDP_CHARS} characters (this one has ${sdp.length})`);
}

export function signalingCallPart(cloud: CloudContext): Pick<ServiceImpl<typeof SignalingService>, "call" | "callUpdate" | "optionalWebRTCConfig"> {
  return {
    async *call(request, context) {
      const principal = callerOf(context);
      checkOffer(request.sdp);
      const host = calledHost(context);
      await reachableMachine(cloud, principal, host);
      // A caller gone while it was being checked offers the machine nothing.
      if (context.signal.aborted) return;
      const call = await cloud.signaling.call({ host, caller: principal.subject, sdp: request.sdp, disableTrickle: request.disableTrickle });
      try {
        for (;;) {
          const next = await call.toCaller.take(context.signal);
          if (next.kind === "ended") {
            if (next.error !== undefined) throw next.error;
            return;
          }
          yield callResponseOf(call.uuid, next.message);
        }
      } finally {
        // However the stream ended: the caller left, a write failed, or the call is over (then nothing).
        call.hangUp();
      }
    },

    async callUpdate(request, context) {
      const principal = callerOf(context);
      await cloud.signaling.update(request.uuid, principal.subject, calledHost(context), fromCallUpdate(request));
      return {};
    },

    async optionalWebRTCConfig(_request, context) {
      const principal = callerOf(context);
      await reachableMachine(cloud, principal, calledHost(context));
      return { config: webRtcConfig(cloud.iceServers, false) };
    },
  };
}

// proto.rpc.webrtc.v1.SignalingService as the machine serves it for itself ("internal
// signaling"): a caller that can reach the API port offers a WebRTC connection naming this
// machine in `rpc-host`, and gets the answer and the machine's candidates back on the same call.
// The port's credentials check applies to these calls as to any other; what the Call
// authenticated as holds for every call inside the connection it makes, while its key stays.
// An `rpc-host` this machine does not answer for, and a uuid it does not know, get the same
// answer whoever asks.
import type { ServiceImpl, HandlerContext } from "@connectrpc/connect";
import { ConnectError } from "@connectrpc/connect";
import { create } from "@bufbuild/protobuf";
import { Code } from "../../../../core/index.js";
import {
  CallResponseSchema,
  ICECandidateSchema,
  SignalingService,
  type CallResponse,
} from "../../../../proto/gen/proto/rpc/webrtc/v1/signaling_pb.js";
import { peerKey, type ConnectionGrant, type MaybeAsync } from "../transport/index.js";
import type { SessionDescription } from "./answering-peer.js";
import type { ExchangeEvent, WebRtcAnswerer } from "./webrtc-answerer.js";

/** The longest offer taken, encoded: a real one is a few kilobytes. */
export const MAX_OFFER_CHARS = 64 * 1024;

export interface SignalingServiceOptions {
  readonly answerer: WebRtcAnswerer;
  /** True for a host this machine answers for: its names, alone or with the port. */
  namesMachine(host: string): boolean;
  /** What the call's `authorization` header proves, to hold for the connection. */
  grantOf(header: string | null): MaybeAsync<ConnectionGrant | undefined>;
  /** ICE servers callers are told to use, in the WebRTC form ("stun:host:port"). */
  readonly iceServerUrls: readonly string[];
}

export function signalingService(options: SignalingServiceOptions): Partial<ServiceImpl<typeof SignalingService>> {
  const { answerer } = options;

  function checkHost(context: HandlerContext): void {
    const host = context.requestHeader.get("rpc-host") ?? "";
    if (!options.namesMachine(host)) throw new ConnectError(`no machine answers for host ${JSON.stringify(host.slice(0, 200))} here`, Code.NotFound);
  }

  return {
    async *call(request, context) {
      checkHost(context);
      const offer = decodeOffer(request.sdp);
      const grant = await options.grantOf(context.requestHeader.get("authorization"));
      const address = context.values.get(peerKey).address;
      const exchange = await answerer.answer(offer, { grant, address, trickle: !request.disableTrickle });
      // The caller leaving before the connection opens ends the exchange.
      const onAbort = () => exchange.fail("the call ended");
      context.signal.addEventListener("abort", onAbort);
      try {
        for await (const event of exchange.events) yield responseOf(exchange.uuid, event);
      } finally {
        context.signal.removeEventListener("abort", onAbort);
      }
    },
    callUpdate(request, context) {
      checkHost(context);
      const exchange = answerer.exchange(request.uuid);
      if (!exchange) throw new ConnectError(`no call ${JSON.stringify(request.uuid.slice(0, 64))}`, Code.NotFound);
      const update = request.update;
      if (update.case === "candidate") exchange.addCandidate(update.value.candidate, update.value.sdpMid);
      if (update.case === "error") exchange.fail(update.value.message);
      return {};
    },
    optionalWebRTCConfig(_request, context) {
      checkHost(context);
      return { config: { additionalIceServers: options.iceServerUrls.map((url) => ({ urls: [url] })), disableTrickle: false } };
    },
  };
}

/** The caller's offer from its base64 JSON form; INVALID_ARGUMENT saying what is wrong. */
export function decodeOffer(encoded: string): SessionDescription {
  if (encoded.length > MAX_OFFER_CHARS) throw new ConnectError(`sdp: an offer may be at most ${MAX_OFFER_CHARS} characters`, Code.InvalidArgument);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(encoded, "base64").toString("utf8"));
  } catch {
    throw new ConnectError("sdp: not the base64 of a JSON session description", Code.InvalidArgument);
  }
  const { type, sdp } = (parsed ?? {}) as { type?: unknown; sdp?: unknown };
  if (type !== "offer" || typeof sdp !== "string" || !sdp.startsWith("v=0")) {
    throw new ConnectError('sdp: expected {"type": "offer", "sdp": "v=0..."}', Code.InvalidArgument);
  }
  return { type, sdp };
}

/** A session description as the Viam clients send it: the base64 of its JSON. */
export function encodeDescription(description: SessionDescription): string {
  return Buffer.from(JSON.stringify({ type: description.type, sdp: description.sdp })).toString("base64");
}

function responseOf(uuid: string, event: ExchangeEvent): CallResponse {
  if ("answer" in event) return create(CallResponseSchema, { uuid, stage: { case: "init", value: { sdp: encodeDescription(event.answer) } } });
  const candidate = create(ICECandidateSchema, { candidate: event.candidate.candidate, sdpMid: event.candidate.sdpMid });
  return create(CallResponseSchema, { uuid, stage: { case: "update", value: { candidate } } });
}

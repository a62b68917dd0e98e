// The signaling of one offer through a SignalingService (svc-cloud's, or a machine's own), with
// `rpc-host` naming the machine called: the ICE servers it gives (OptionalWebRTCConfig), the offer
// sent with Call, the answer and the answering side's candidates read from the Call stream, and
// this side's candidates trickled with CallUpdate (held until the answer has given the call its
// uuid, then sent in order, `done` last).
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { Client } from "@connectrpc/connect";
import { ConnectError } from "@connectrpc/connect";
import { Code } from "../../../../../core/index.js";
import { SignalingService, type CallUpdateRequestSchema } from "../../../../../proto/gen/proto/rpc/webrtc/v1/signaling_pb.js";
import type { IceCandidateText, SessionDescription } from "../answering-peer.js";
import { encodeDescription } from "../signaling-service.js";

export type Signaling = Client<typeof SignalingService>;

export interface CallSignalingOptions {
  readonly signaling: Signaling;
  /** The machine called, as the signaling service knows it (its fqdn). */
  readonly host: string;
  /** Ends the signaling: the connection was made and closed, or given up. */
  readonly signal: AbortSignal;
  onAnswer(answer: SessionDescription): void;
  onCandidate(candidate: IceCandidateText): void;
}

export interface CallSignaling {
  /** Sends the offer; resolves when the Call stream ends (the answering side said done), rejects with its error. */
  offer(offer: SessionDescription): Promise<void>;
  /** A candidate of this side. */
  candidate(candidate: IceCandidateText): void;
  /** This side has no more candidates. */
  done(): void;
}

/** The ICE servers the signaling service gives for calls to `host`, in libdatachannel's form. */
export async function iceServersFor(signaling: Signaling, host: string, signal: AbortSignal): Promise<string[]> {
  const answer = await signaling.optionalWebRTCConfig({}, { headers: { "rpc-host": host }, signal });
  const servers: string[] = [];
  for (const server of answer.config?.additionalIceServers ?? []) {
    for (const url of server.urls) servers.push(withCredentials(url, server.username, server.credential));
  }
  return servers;
}

// libdatachannel takes a TURN server's user and password in its URL, percent-encoded.
function withCredentials(url: string, username: string, credential: string): string {
  const colon = url.indexOf(":");
  if (username === "" || colon < 0) return url;
  return `${url.slice(0, colon)}:${encodeURIComponent(username)}:${encodeURIComponent(credential)}@${url.slice(colon + 1)}`;
}

type Update = MessageInitShape<typeof CallUpdateRequestSchema>["update"];

export function createCallSignaling(options: CallSignalingOptions): CallSignaling {
  const { signaling, signal } = options;
  const headers = { "rpc-host": options.host };
  let uuid: string | undefined;
  let held: Update[] = [];
  let sending: Promise<unknown> = Promise.resolve();

  // An update that fails is let go: ICE still finds the path through the checks the answering
  // side sends, and the connect deadline bounds the rest.
  const send = (update: Update) => {
    sending = sending.then(() => signaling.callUpdate({ uuid, update }, { headers, signal }).catch(() => {}));
  };
  const update = (update: Update) => {
    if (uuid === undefined) held.push(update);
    else send(update);
  };

  async function offer(description: SessionDescription): Promise<void> {
    const stream = signaling.call({ sdp: encodeDescription(description), disableTrickle: false }, { headers, signal });
    for await (const response of stream) {
      const stage = response.stage;
      if (stage.case === "init" && uuid === undefined) {
        uuid = response.uuid;
        options.onAnswer(decodeAnswer(stage.value.sdp));
        for (const waiting of held) send(waiting);
        held = [];
      }
      if (stage.case === "update" && stage.value.candidate) {
        options.onCandidate({ candidate: stage.value.candidate.candidate, sdpMid: stage.value.candidate.sdpMid ?? "0" });
      }
    }
  }

  return {
    offer,
    candidate: (candidate) => update({ case: "candidate", value: { candidate: candidate.candidate, sdpMid: candidate.sdpMid } }),
    done: () => update({ case: "done", value: true }),
  };
}

/** The answering side's answer from its base64 JSON form. */
export function decodeAnswer(encoded: string): SessionDescription {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(encoded, "base64").toString("utf8"));
  } catch {
    throw new ConnectError("the answer is not the base64 of a JSON session description", Code.Internal);
  }
  const { type, sdp } = (parsed ?? {}) as { type?: unknown; sdp?: unknown };
  if (type !== "answer" || typeof sdp !== "string" || !sdp.startsWith("v=0")) throw new ConnectError('the answer is not {"type": "answer", "sdp": "v=0..."}', Code.Internal);
  return { type, sdp };
}

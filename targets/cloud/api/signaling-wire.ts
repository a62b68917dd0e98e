// proto.rpc.webrtc.v1's messages to and from the relay's own (fleet/signaling-messages.ts), with
// the bounds on what either side may put in them: an offer or answer of at most MAX_SDP_CHARS, a
// candidate of a few hundred characters, a status message cut to what an error carries. A
// caller's bad update is refused in words; a machine's is dropped (its caller would otherwise
// pay for it) with the reason, for the log.
import type { MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { Code, SvcError } from "../../../core/index.js";
import type { Status } from "../../../proto/gen/google/rpc/status_pb.js";
import type {
  AnswerRequestSchema,
  AnswerResponse,
  CallResponseSchema,
  CallUpdateRequest,
  ICECandidate,
  WebRTCConfigSchema,
} from "../../../proto/gen/proto/rpc/webrtc/v1/signaling_pb.js";
import { boundText, ERROR_MESSAGE_MAX_CHARS } from "../../../node/rpc/bounded-text.js";
import type { IceServer } from "../fleet/ice-servers.js";
import type { FromCaller, FromMachine, IceCandidate, RelayStatus, ToCaller, ToMachine } from "../fleet/signaling-messages.js";

/** The longest offer or answer taken, encoded (base64 of JSON): a real one is a few kilobytes. */
export const MAX_SDP_CHARS = 65_536;
/** The longest candidate line taken: a real one is under 200 characters. */
export const MAX_CANDIDATE_CHARS = 1024;
const MAX_CANDIDATE_FIELD_CHARS = 256;

type AnswerRequestInit = MessageInitShape<typeof AnswerRequestSchema>;
type CallResponseInit = MessageInitShape<typeof CallResponseSchema>;

export function webRtcConfig(iceServers: readonly IceServer[], disableTrickle: boolean): MessageInitShape<typeof WebRTCConfigSchema> {
  return { additionalIceServers: iceServers.map((s) => ({ urls: [...s.urls], username: s.username, credential: s.credential })), disableTrickle };
}

export const heartbeatRequest: AnswerRequestInit = { uuid: "", stage: { case: "heartbeat", value: {} } };

export function answerRequestOf(message: ToMachine, iceServers: readonly IceServer[]): AnswerRequestInit {
  const uuid = message.uuid;
  switch (message.kind) {
    case "offer": {
      const init = { sdp: message.sdp, optionalConfig: webRtcConfig(iceServers, message.disableTrickle), deadline: timestampFromMs(message.deadline) };
      return { uuid, stage: { case: "init", value: init } };
    }
    case "candidate":
      return { uuid, stage: { case: "update", value: { candidate: message.candidate } } };
    case "done":
      return { uuid, stage: { case: "done", value: {} } };
    case "error":
      return { uuid, stage: { case: "error", value: { status: { code: message.status.code, message: message.status.message } } } };
  }
}

export function callResponseOf(uuid: string, message: ToCaller): CallResponseInit {
  return message.kind === "answer"
    ? { uuid, stage: { case: "init", value: { sdp: message.sdp } } }
    : { uuid, stage: { case: "update", value: { candidate: message.candidate } } };
}

/** What the machine said, for the relay; or, for a message nobody should be handed, why it was dropped. */
export function fromAnswerResponse(response: AnswerResponse): FromMachine | { dropped: string } {
  const { uuid, stage } = response;
  if (uuid === "" || stage.case === undefined) return { dropped: "an AnswerResponse without a uuid or a stage" };
  switch (stage.case) {
    case "init":
      if (stage.value.sdp.length <= MAX_SDP_CHARS) return { kind: "answer", uuid, sdp: stage.value.sdp };
      // Its caller is told, rather than left waiting for the answer's deadline.
      return { kind: "error", uuid, status: { code: Code.Internal, message: `the machine's answer is longer than ${MAX_SDP_CHARS} characters` } };
    case "update": {
      const problem = candidateProblem(stage.value.candidate);
      return problem === undefined ? { kind: "candidate", uuid, candidate: candidateOf(stage.value.candidate!) } : { dropped: `a candidate: ${problem}` };
    }
    case "done":
      return { kind: "done", uuid };
    case "error":
      return { kind: "error", uuid, status: statusOf(stage.value.status) };
  }
}

/** A caller's update for the relay; InvalidArgument saying what is wrong with it. */
export function fromCallUpdate(request: CallUpdateRequest): FromCaller {
  const update = request.update;
  switch (update.case) {
    case "candidate": {
      const problem = candidateProblem(update.value);
      if (problem !== undefined) throw new SvcError(Code.InvalidArgument, `candidate: ${problem}`);
      return { kind: "candidate", candidate: candidateOf(update.value) };
    }
    case "done":
      return { kind: "done" };
    case "error":
      return { kind: "error", status: statusOf(update.value) };
    default:
      throw new SvcError(Code.InvalidArgument, "a CallUpdate carries a candidate, done or an error");
  }
}

function candidateProblem(candidate: ICECandidate | undefined): string | undefined {
  if (candidate === undefined) return "missing";
  if (candidate.candidate.length > MAX_CANDIDATE_CHARS) return `longer than ${MAX_CANDIDATE_CHARS} characters`;
  if ((candidate.sdpMid?.length ?? 0) > MAX_CANDIDATE_FIELD_CHARS || (candidate.usernameFragment?.length ?? 0) > MAX_CANDIDATE_FIELD_CHARS) {
    return `sdp_mid and username_fragment are at most ${MAX_CANDIDATE_FIELD_CHARS} characters`;
  }
  return undefined;
}

function candidateOf(candidate: ICECandidate): IceCandidate {
  return { candidate: candidate.candidate, sdpMid: candidate.sdpMid, sdpmLineIndex: candidate.sdpmLineIndex, usernameFragment: candidate.usernameFragment };
}

/** A status from the wire: a code that is no error (OK, or none gRPC has) becomes Unknown; the message is cut to an error's size. */
function statusOf(status: Status | undefined): RelayStatus {
  const code = status?.code ?? 0;
  return { code: code >= 1 && code <= 16 ? (code as Code) : Code.Unknown, message: boundText(status?.message ?? "", ERROR_MESSAGE_MAX_CHARS) };
}

// What the signaling relay passes between a caller and a machine, in its own words: the API
// turns these into proto.rpc.webrtc.v1's messages and back (api/signaling-wire.ts), so the relay
// knows calls and machines, not protobuf. Each message of a call carries the call's uuid on the
// machine's side; a caller has one call per Call stream and needs none.
import type { Code } from "../../../core/index.js";

export interface IceCandidate {
  readonly candidate: string;
  readonly sdpMid?: string;
  readonly sdpmLineIndex?: number;
  readonly usernameFragment?: string;
}

/** How a call ended badly, as a gRPC status. */
export interface RelayStatus {
  readonly code: Code;
  readonly message: string;
}

/** What a machine's Answer stream is sent for a call. */
export type ToMachine =
  | { kind: "offer"; uuid: string; sdp: string; disableTrickle: boolean; /** clock time */ deadline: number }
  | { kind: "candidate"; uuid: string; candidate: IceCandidate }
  | { kind: "done"; uuid: string }
  | { kind: "error"; uuid: string; status: RelayStatus };

/** What a machine sends on its Answer stream for a call. */
export type FromMachine =
  | { kind: "answer"; uuid: string; sdp: string }
  | { kind: "candidate"; uuid: string; candidate: IceCandidate }
  | { kind: "done"; uuid: string }
  | { kind: "error"; uuid: string; status: RelayStatus };

/** What a caller's Call stream is sent. */
export type ToCaller = { kind: "answer"; sdp: string } | { kind: "candidate"; candidate: IceCandidate };

/** What a caller sends for its call (CallUpdate). */
export type FromCaller = { kind: "candidate"; candidate: IceCandidate } | { kind: "done" } | { kind: "error"; status: RelayStatus };

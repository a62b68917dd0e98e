// One call's answer as the caller reads it from Response frames: its headers (nothing in them is
// needed), its message gathered from packets, and its trailers, whose status ends the call. A
// unary call's answer is exactly one message within `maxBytes`; anything else is said as the
// error a gRPC client would give: the peer's own status with its code and message, more than
// `maxBytes` RESOURCE_EXHAUSTED (said as soon as it is known, so the caller can reset the stream),
// an answer that breaks the protocol INTERNAL.
import { ConnectError } from "@connectrpc/connect";
import { Code } from "../../../../../core/index.js";
import type { Response } from "../../../../../proto/gen/proto/rpc/webrtc/v1/grpc_pb.js";

/** The call is over: its answer's bytes, or the error it ended with. */
export type Answered = { readonly message: Uint8Array } | { readonly error: ConnectError };

export interface AnswerReader {
  /** Takes one frame of the call's stream; the outcome once the call is over, undefined until then. */
  take(response: Response): Answered | undefined;
}

/** `peer` names who answers, in errors ("remote pi"). */
export function createAnswerReader(peer: string, maxBytes = Infinity): AnswerReader {
  let packets: Uint8Array[] = [];
  let size = 0;
  let message: Uint8Array | undefined;
  const broken = (what: string): Answered => ({ error: new ConnectError(`${peer}'s answer ${what}`, Code.Internal) });

  function packet(data: Uint8Array, eom: boolean): Answered | undefined {
    if (message !== undefined) return broken("has more than one message");
    size += data.length;
    if (size > maxBytes) return { error: new ConnectError(`${peer} answered with more than ${maxBytes} bytes`, Code.ResourceExhausted) };
    if (data.length > 0) packets.push(data);
    if (!eom) return undefined;
    message = packets.length === 1 ? packets[0]! : concat(packets, size);
    packets = [];
    return undefined;
  }

  return {
    take(response) {
      const type = response.type;
      if (type.case === "message") return type.value.packetMessage ? packet(type.value.packetMessage.data, type.value.packetMessage.eom) : undefined;
      if (type.case !== "trailers") return undefined;
      const status = type.value.status;
      if (status !== undefined && status.code !== 0) return { error: new ConnectError(status.message, statusCode(status.code)) };
      if (message === undefined) return broken(packets.length > 0 ? "ends in the middle of its message" : "has no message");
      return { message };
    },
  };
}

function concat(packets: readonly Uint8Array[], size: number): Uint8Array {
  const whole = new Uint8Array(size);
  let at = 0;
  for (const p of packets) {
    whole.set(p, at);
    at += p.length;
  }
  return whole;
}

// A status outside gRPC's codes is UNKNOWN, as gRPC clients read it.
function statusCode(code: number): Code {
  return Number.isInteger(code) && code >= 1 && code <= 16 ? (code as Code) : Code.Unknown;
}

// The frames a caller sends for one call on a WebRTC data channel (proto.rpc.webrtc.v1 Request):
// the headers (method, metadata, deadline), the message cut into packets as the answering side
// cuts its answers (channel-frames.ts: PACKET_BYTES each, the last marked end of message, here also
// end of stream, as a unary call sends nothing after it), and the reset that cancels the call.
import { create, toBinary, type MessageInitShape } from "@bufbuild/protobuf";
import { RequestSchema } from "../../../../../proto/gen/proto/rpc/webrtc/v1/grpc_pb.js";
import { PACKET_BYTES } from "../channel-frames.js";

export interface CallHeaders {
  /** "/package.Service/Method" */
  readonly path: string;
  /** Metadata the call carries (`authorization` for a remote part). */
  readonly metadata?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
}

function frame(id: bigint, type: MessageInitShape<typeof RequestSchema>["type"]): Uint8Array {
  return toBinary(RequestSchema, create(RequestSchema, { stream: { id }, type }));
}

/** The headers frame that starts stream `id`. */
export function requestHeadersFrame(id: bigint, headers: CallHeaders): Uint8Array {
  const md: Record<string, { values: string[] }> = {};
  for (const [key, value] of Object.entries(headers.metadata ?? {})) md[key.toLowerCase()] = { values: [value] };
  const ms = headers.timeoutMs === undefined ? undefined : Math.max(1, Math.ceil(headers.timeoutMs));
  const timeout = ms === undefined ? undefined : { seconds: BigInt(Math.floor(ms / 1000)), nanos: (ms % 1000) * 1_000_000 };
  return toBinary(RequestSchema, create(RequestSchema, { stream: { id }, type: { case: "headers", value: { method: headers.path, metadata: { md }, timeout } } }));
}

/** The frames of the call's one message for stream `id`, each packet at most `packetBytes`; the last ends the message and the stream. */
export function requestMessageFrames(id: bigint, message: Uint8Array, packetBytes = PACKET_BYTES): Uint8Array[] {
  const frames: Uint8Array[] = [];
  let offset = 0;
  do {
    const data = message.subarray(offset, offset + packetBytes);
    offset += data.length;
    const last = offset >= message.length;
    frames.push(frame(id, { case: "message", value: { hasMessage: true, packetMessage: { data, eom: last }, eos: last } }));
  } while (offset < message.length);
  return frames;
}

/** The frame that resets stream `id`: the answering side cancels the call. */
export function resetFrame(id: bigint): Uint8Array {
  return frame(id, { case: "rstStream", value: true });
}

// The frames of gRPC over a WebRTC data channel (proto.rpc.webrtc.v1): a call's headers become the
// HTTP-shaped headers the port's RPC handler reads, and an answer's headers, messages and
// trailers become Response frames, each message cut into packets small enough for any peer's
// data channel.
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import type { IncomingHttpHeaders } from "node:http2";
import { StatusSchema, type Status } from "../../../../proto/gen/google/rpc/status_pb.js";
import { MetadataSchema, type Metadata, type RequestHeaders } from "../../../../proto/gen/proto/rpc/webrtc/v1/grpc_pb.js";

/** The most data one packet of a message carries (what the official TypeScript client sends). */
export const PACKET_BYTES = 16 * 1024;

// Headers a client may not set through metadata: the call's own framing is the server's to say.
const reserved = new Set(["content-type", "grpc-timeout", "grpc-encoding", "te", "content-length", "host", "expect"]);

/** The headers the port's RPC handler reads for a call arriving with `headers`. */
export function callHeaders(headers: RequestHeaders): IncomingHttpHeaders {
  const result: IncomingHttpHeaders = {};
  for (const [key, strings] of Object.entries(headers.metadata?.md ?? {})) {
    const name = key.toLowerCase();
    if (name.startsWith(":") || reserved.has(name) || strings.values.length === 0) continue;
    result[name] = strings.values.join(", ");
  }
  result[":method"] = "POST";
  result[":path"] = headers.method;
  result["content-type"] = "application/grpc+proto";
  const timeoutMs = durationMs(headers.timeout);
  if (timeoutMs !== undefined) result["grpc-timeout"] = `${timeoutMs}m`;
  return result;
}

function durationMs(duration: RequestHeaders["timeout"]): number | undefined {
  if (!duration) return undefined;
  const ms = Number(duration.seconds) * 1000 + Math.ceil(duration.nanos / 1e6);
  // gRPC's timeout has at most eight digits; a longer one is no deadline worth keeping.
  return ms > 0 && ms < 1e8 ? ms : ms <= 0 ? 1 : undefined;
}

/** Metadata for an answer's headers or trailers: everything but the transport's own fields. */
export function metadataOf(headers: Headers): Metadata | undefined {
  const md: Record<string, { values: string[] }> = {};
  let any = false;
  headers.forEach((value, key) => {
    if (key === "content-type" || key.startsWith("grpc-")) return;
    any = true;
    (md[key] ??= { values: [] }).values.push(value);
  });
  return any ? create(MetadataSchema, { md }) : undefined;
}

/** The status an answer's trailer carries, with its details when it has them. */
export function statusOf(trailer: Headers): Status {
  const details = trailer.get("grpc-status-details-bin");
  if (details) {
    try {
      return fromBinary(StatusSchema, Buffer.from(details, "base64"));
    } catch {
      // Unreadable details: the code and message below still say what happened.
    }
  }
  const code = Number(trailer.get("grpc-status") ?? "0");
  return create(StatusSchema, { code: Number.isInteger(code) ? code : 2, message: decodeGrpcMessage(trailer.get("grpc-message") ?? "") });
}

function decodeGrpcMessage(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

// The Response frames are written field by field (a frame is a few varints around the message's
// bytes, and three go out for every call), the metadata and status through their schemas.

// Response: stream = 1, headers = 2, message = 3, trailers = 4. Stream.id = 1.
function startFrame(id: bigint, field: number): BinaryWriter {
  return new BinaryWriter().tag(1, WireType.LengthDelimited).fork().tag(1, WireType.Varint).uint64(id).join().tag(field, WireType.LengthDelimited).fork();
}

/** A headers frame for stream `id`. */
export function headersFrame(id: bigint, header: Headers): Uint8Array {
  const writer = startFrame(id, 2);
  const metadata = metadataOf(header);
  // ResponseHeaders.metadata = 1.
  if (metadata) writer.tag(1, WireType.LengthDelimited).bytes(toBinary(MetadataSchema, metadata));
  return writer.join().finish();
}

/** The frames of one message for stream `id`, each packet at most PACKET_BYTES. */
export function messageFrames(id: bigint, message: Uint8Array): Uint8Array[] {
  const frames: Uint8Array[] = [];
  let offset = 0;
  do {
    const data = message.subarray(offset, offset + PACKET_BYTES);
    offset += data.length;
    // ResponseMessage.packet_message = 1; PacketMessage: data = 1, eom = 2.
    const writer = startFrame(id, 3).tag(1, WireType.LengthDelimited).fork().tag(1, WireType.LengthDelimited).bytes(data);
    if (offset >= message.length) writer.tag(2, WireType.Varint).bool(true);
    frames.push(writer.join().join().finish());
  } while (offset < message.length);
  return frames;
}

/** A trailers frame for stream `id`: its status and metadata. */
export function trailersFrame(id: bigint, status: Status, metadata?: Metadata): Uint8Array {
  // ResponseTrailers: status = 1, metadata = 2.
  const writer = startFrame(id, 4).tag(1, WireType.LengthDelimited).bytes(toBinary(StatusSchema, status));
  if (metadata) writer.tag(2, WireType.LengthDelimited).bytes(toBinary(MetadataSchema, metadata));
  return writer.join().finish();
}

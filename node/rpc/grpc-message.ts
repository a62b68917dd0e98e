// The grpc-message trailer, percent-encoded the way the gRPC spec says: only bytes outside
// printable ASCII, and "%" itself. connect encodes it with encodeURIComponent, which also escapes
// ":" and "/"; clients that decode only what the spec requires (grpc-js uses decodeURI) would
// show `rdk%3Acomponent%3Asensor%2Ftemp` instead of the resource name. It is also bounded: a
// message may echo what a caller sent (a 70 KB resource name), and a header that large breaks
// the client's HTTP/2 framing. HTTP/2 responses are built with this class so the trailer is
// re-encoded as it is written, with no cost per call when the call succeeds.
import http2, { type OutgoingHttpHeaders } from "node:http2";

/** The longest grpc-message written, encoded. */
export const GRPC_MESSAGE_MAX_BYTES = 1024;

export function encodeGrpcMessage(message: string): string {
  if (message.length <= GRPC_MESSAGE_MAX_BYTES && !/[^\x20-\x24\x26-\x7e]/.test(message)) return message;
  // No more than the limit's worth of characters can be kept, so only those are encoded.
  const whole = message.length <= GRPC_MESSAGE_MAX_BYTES;
  const bytes = new TextEncoder().encode(whole ? message : message.slice(0, GRPC_MESSAGE_MAX_BYTES));
  // Where the encoded text stands after each byte, to cut at a character's start if it must.
  const ends: number[] = [];
  let out = "";
  for (const byte of bytes) {
    out +=
      byte >= 0x20 && byte <= 0x7e && byte !== 0x25
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
    ends.push(out.length);
    if (out.length > GRPC_MESSAGE_MAX_BYTES) break;
  }
  if (whole && out.length <= GRPC_MESSAGE_MAX_BYTES) return out;
  const suffix = `%E2%80%A6 (${Buffer.byteLength(message)} bytes)`;
  let keep = ends.findIndex((end) => end > GRPC_MESSAGE_MAX_BYTES - suffix.length);
  if (keep < 0) keep = ends.length;
  // A UTF-8 continuation byte (10xxxxxx) is never where a character starts.
  while (keep > 0 && keep < bytes.length && (bytes[keep]! & 0xc0) === 0x80) keep--;
  return out.slice(0, keep > 0 ? ends[keep - 1] : 0) + suffix;
}

/** `trailers` with its grpc-message (as connect encodes it) encoded and bounded as the spec says; the same object. */
export function withGrpcMessage<T extends OutgoingHttpHeaders>(trailers: T): T {
  const message = trailers["grpc-message"];
  if (typeof message === "string" && (message.includes("%") || message.length > GRPC_MESSAGE_MAX_BYTES)) {
    (trailers as OutgoingHttpHeaders)["grpc-message"] = encodeGrpcMessage(safeDecode(message));
  }
  return trailers;
}

export class GrpcHttp2ServerResponse extends http2.Http2ServerResponse {
  override addTrailers(trailers: OutgoingHttpHeaders): void {
    super.addTrailers(withGrpcMessage(trailers));
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

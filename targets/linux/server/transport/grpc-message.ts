// The grpc-message trailer, percent-encoded the way the gRPC spec says: only bytes outside
// printable ASCII, and "%" itself. connect encodes it with encodeURIComponent, which also escapes
// ":" and "/"; clients that decode only what the spec requires (grpc-js uses decodeURI) would
// show `rdk%3Acomponent%3Asensor%2Ftemp` instead of the resource name. HTTP/2 responses are
// built with this class so the trailer is re-encoded as it is written, with no cost per call
// when the call succeeds.
import http2, { type OutgoingHttpHeaders } from "node:http2";

export function encodeGrpcMessage(message: string): string {
  if (!/[^\x20-\x24\x26-\x7e]/.test(message)) return message;
  let out = "";
  for (const byte of new TextEncoder().encode(message)) {
    out +=
      byte >= 0x20 && byte <= 0x7e && byte !== 0x25
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

export class GrpcHttp2ServerResponse extends http2.Http2ServerResponse {
  override addTrailers(trailers: OutgoingHttpHeaders): void {
    const message = trailers["grpc-message"];
    if (typeof message === "string" && message.includes("%")) {
      trailers["grpc-message"] = encodeGrpcMessage(safeDecode(message));
    }
    super.addTrailers(trailers);
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

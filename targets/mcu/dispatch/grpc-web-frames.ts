// gRPC-web's body framing: each message is a flag byte (0 for data), a 4-byte big-endian length
// and the message; the status ends the body as a trailer frame (flag 0x80) holding
// "grpc-status" and "grpc-message" lines. Unary calls only: one message each way.
import { encodeUtf8 } from "../codec/index.js";
import { Code, SvcError } from "../../../core/index.js";

const DATA = 0x00;
const COMPRESSED = 0x01;
const TRAILER = 0x80;

/** The one message of a unary request body. */
export function requestMessage(body: Uint8Array): Uint8Array {
  if (body.length < 5) throw new SvcError(Code.InvalidArgument, `the request body (${body.length} bytes) holds no gRPC-web message frame`);
  const flags = body[0]!;
  if (flags & COMPRESSED) throw new SvcError(Code.Unimplemented, "compressed request messages are not supported");
  if (flags !== DATA) throw new SvcError(Code.InvalidArgument, `the request frame has the unknown flags 0x${flags.toString(16)}`);
  const length = ((body[1]! << 24) | (body[2]! << 16) | (body[3]! << 8) | body[4]!) >>> 0;
  if (5 + length !== body.length) {
    throw new SvcError(Code.InvalidArgument, `the request frame says ${length} bytes but the body holds ${body.length - 5}, or more than one message`);
  }
  return body.subarray(5);
}

/**
 * The grpc-message text, percent-encoded as the gRPC spec says: bytes outside printable ASCII
 * and "%" itself, so a resource name such as rdk:component:motor/left stays readable.
 */
export function encodeGrpcMessage(message: string): string {
  let plain = true;
  for (let i = 0; i < message.length && plain; i++) {
    const c = message.charCodeAt(i);
    plain = c >= 0x20 && c <= 0x7e && c !== 0x25;
  }
  if (plain) return message;
  let out = "";
  const bytes = encodeUtf8(message);
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    out += b >= 0x20 && b <= 0x7e && b !== 0x25 ? String.fromCharCode(b) : `%${b < 16 ? "0" : ""}${b.toString(16).toUpperCase()}`;
  }
  return out;
}

function putFrame(out: Uint8Array, at: number, flags: number, payload: Uint8Array): number {
  const n = payload.length;
  out[at] = flags;
  out[at + 1] = (n >>> 24) & 0xff;
  out[at + 2] = (n >>> 16) & 0xff;
  out[at + 3] = (n >>> 8) & 0xff;
  out[at + 4] = n & 0xff;
  out.set(payload, at + 5);
  return at + 5 + n;
}

/** A response body: the message (when the call succeeded) and the trailer with its status. */
export function responseBody(message: Uint8Array | undefined, code: number, text = ""): Uint8Array {
  const trailer = encodeUtf8(`grpc-status: ${code}\r\n${text === "" ? "" : `grpc-message: ${encodeGrpcMessage(text)}\r\n`}`);
  const out = new Uint8Array((message ? 5 + message.length : 0) + 5 + trailer.length);
  const at = message ? putFrame(out, 0, DATA, message) : 0;
  putFrame(out, at, TRAILER, trailer);
  return out;
}

/** The body of a failed call, whatever was thrown. */
export function errorBody(thrown: unknown): Uint8Array {
  const error = SvcError.from(thrown);
  return responseBody(undefined, error.code, error.message);
}

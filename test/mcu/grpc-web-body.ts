// gRPC-web bodies as the MCU reads and writes them: a request frame around a protobuf-es
// message, and a response body read back into its message and its trailer's status.
import { create, toBinary, type DescMessage } from "@bufbuild/protobuf";

/** One frame: flags, a 4-byte big-endian length, the message. */
export function frame(message: Uint8Array, flags = 0): Uint8Array {
  const out = new Uint8Array(5 + message.length);
  out[0] = flags;
  new DataView(out.buffer).setUint32(1, message.length);
  out.set(message, 5);
  return out;
}

export function request<T extends DescMessage>(schema: T, init: object): Uint8Array {
  return frame(toBinary(schema, create(schema, init as never)));
}

/** The frames of a gRPC-web response body: the message, if any, and the trailer's fields. */
export function parse(body: Uint8Array): { message?: Uint8Array; status: number; text: string } {
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  let message: Uint8Array | undefined;
  const trailer: Record<string, string> = {};
  for (let at = 0; at < body.length; ) {
    const flags = body[at]!;
    const length = view.getUint32(at + 1);
    const payload = body.subarray(at + 5, at + 5 + length);
    if (flags & 0x80) {
      for (const line of Buffer.from(payload).toString("utf8").split("\r\n")) {
        const colon = line.indexOf(": ");
        if (colon > 0) trailer[line.slice(0, colon)] = line.slice(colon + 2);
      }
    } else message = payload;
    at += 5 + length;
  }
  return { message, status: Number(trailer["grpc-status"]), text: decodeURIComponent(trailer["grpc-message"] ?? "") };
}

// The body of a gRPC-web answer: length-prefixed frames, data (flag 0) and then one trailer frame
// (flag 0x80) whose payload is "name: value\r\n" lines. The frames are read as the bytes arrive,
// in whatever pieces the connection gives them, so a frame that says it is larger than allowed is
// refused from its 5-byte prefix, before its payload is held. Only the first data frame's bytes
// are kept: an answer of any other number of messages is refused whole by its reader.
import { ConnectError } from "@connectrpc/connect";
import { Code } from "../../../core/index.js";

/** Largest trailer frame taken: its lines are headers, bounded like a header section. */
export const MAX_TRAILER_BYTES = 64 * 1024;

const PREFIX_BYTES = 5;
const TRAILER_FLAG = 0x80;
const COMPRESSED_FLAG = 0x01;

export interface FrameReading {
  /** Who answered, for messages: "remote pi". */
  readonly peer: string;
  /** The most data the answer may carry, all its messages together. */
  readonly maxDataBytes: number;
  /** A prefix that came split over pieces, as far as it has come. */
  prefix: Buffer | undefined;
  prefixBytes: number;
  /** The frame being read, and how many of its bytes are still to come. */
  kind: "data" | "trailer" | undefined;
  left: number;
  /** The first data frame's payload, in the pieces it came in. */
  readonly message: Buffer[];
  messages: number;
  dataBytes: number;
  /** The trailer frame's payload, once it began. */
  trailer: Buffer[] | undefined;
}

/** What the frames said once the body ended. */
export interface FramesRead {
  /** The message's bytes when there was exactly one data frame. */
  readonly message: Uint8Array | undefined;
  /** The trailer frame's lines, when there was one. */
  readonly trailer: string | undefined;
}

export function startFrames(peer: string, maxDataBytes: number): FrameReading {
  return { peer, maxDataBytes, prefix: undefined, prefixBytes: 0, kind: undefined, left: 0, message: [], messages: 0, dataBytes: 0, trailer: undefined };
}

/** Reads `bytes[start, end)` of the body; throws a ConnectError when a frame breaks the protocol or a bound. */
export function readFrames(f: FrameReading, bytes: Buffer, start: number, end: number): void {
  let at = start;
  while (at < end) {
    if (f.left > 0) {
      const take = Math.min(f.left, end - at);
      keep(f, bytes.subarray(at, at + take));
      f.left -= take;
      at += take;
    } else if (f.prefixBytes === 0 && end - at >= PREFIX_BYTES) {
      beginFrame(f, bytes[at]!, bytes.readUInt32BE(at + 1));
      at += PREFIX_BYTES;
    } else {
      // A prefix split between pieces: gather it first.
      f.prefix ??= Buffer.allocUnsafe(PREFIX_BYTES);
      const take = Math.min(PREFIX_BYTES - f.prefixBytes, end - at);
      bytes.copy(f.prefix, f.prefixBytes, at, at + take);
      f.prefixBytes += take;
      at += take;
      if (f.prefixBytes < PREFIX_BYTES) return;
      f.prefixBytes = 0;
      beginFrame(f, f.prefix[0]!, f.prefix.readUInt32BE(1));
    }
  }
}

/** The frames of a body that has ended; throws when it ended inside a frame. */
export function framesRead(f: FrameReading): FramesRead {
  if (f.left > 0 || f.prefixBytes > 0) throw new ConnectError(`${f.peer}'s answer ended inside a gRPC-web frame`, Code.Internal);
  const message = f.messages !== 1 ? undefined : f.message.length === 1 ? f.message[0]! : Buffer.concat(f.message);
  const trailer = f.trailer === undefined ? undefined : (f.trailer.length === 1 ? f.trailer[0]! : Buffer.concat(f.trailer)).toString("latin1");
  return { message, trailer };
}

function beginFrame(f: FrameReading, flag: number, length: number): void {
  if (f.trailer !== undefined) throw new ConnectError(`${f.peer} answered a frame after its trailers`, Code.Internal);
  if (flag & COMPRESSED_FLAG) throw new ConnectError(`${f.peer} answered a compressed message, which was not asked for`, Code.Internal);
  if (flag === TRAILER_FLAG) {
    if (length > MAX_TRAILER_BYTES) throw new ConnectError(`${f.peer} answered trailers over ${MAX_TRAILER_BYTES} bytes`, Code.ResourceExhausted);
    f.kind = "trailer";
    f.trailer = [];
  } else if (flag === 0) {
    if (f.dataBytes + length > f.maxDataBytes) throw new ConnectError(`${f.peer} answered with more than ${f.maxDataBytes} bytes`, Code.ResourceExhausted);
    f.kind = "data";
    f.messages++;
    f.dataBytes += length;
  } else {
    throw new ConnectError(`${f.peer} answered a gRPC-web frame of unknown kind (flag 0x${flag.toString(16)})`, Code.Internal);
  }
  f.left = length;
}

function keep(f: FrameReading, piece: Buffer): void {
  if (f.kind === "trailer") f.trailer!.push(piece);
  else if (f.messages === 1) f.message.push(piece);
}

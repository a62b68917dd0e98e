// Serves gRPC on one WebRTC data channel: Request frames in, calls through the port's RPC handler,
// Response frames out. Streams are numbered by the client; a number is used once, at most
// `maxStreams` run at once, a message is held to the port's limit (and never past 32 MiB, the
// most any Viam peer sends), and a frame that cannot be read, or names a stream that is not
// running, is dropped: none of it reaches a call or stops the others.
import { create, fromBinary } from "@bufbuild/protobuf";
import { StatusSchema } from "../../../../proto/gen/google/rpc/status_pb.js";
import { RequestSchema, type Request, type RequestHeaders } from "../../../../proto/gen/proto/rpc/webrtc/v1/grpc_pb.js";
import { Code } from "../../../../core/index.js";
import { tooLarge } from "../../../../node/rpc/rpc-limits.js";
import { unknownRpcMessage } from "../../../../node/rpc/unknown-rpc.js";
import { MESSAGE_SIZE_SETTING, type PeerSource, type PortCalls } from "../transport/index.js";
import { callHeaders, trailersFrame } from "./channel-frames.js";
import { ChannelStream } from "./channel-stream.js";
import { WebRtcIncoming } from "./webrtc-incoming.js";

/** The most a message over WebRTC may be, whatever the port allows. */
export const WEBRTC_MAX_MESSAGE_BYTES = 32 * 1024 * 1024;
/** How many calls one connection may run at once. */
export const WEBRTC_MAX_STREAMS = 256;
// How far back stream numbers are remembered as used.
const usedWindow = 4096;

export interface ChannelServerOptions {
  readonly calls: PortCalls;
  /** Who the connection is, read for each new call (its address, and what it authenticated as). */
  readonly peer: () => PeerSource;
  /** The port's message limit. */
  readonly maxMessageBytes: number;
  send(frame: Uint8Array): boolean;
  drained(): Promise<void>;
  /** A frame was dropped; told why, for a bounded log. */
  onDropped(why: string): void;
  /** The client sent `<key-id>:<key>` to authenticate the connection. */
  onApiToken(token: string): void;
}

// In the port's words when its limit is the one broken; the data channel's own bound otherwise.
function tooLargeMessage(size: number, portLimit: number): string {
  const what = `request message of ${size} bytes`;
  if (portLimit <= WEBRTC_MAX_MESSAGE_BYTES) return tooLarge(what, { maxMessageBytes: portLimit, open: false, messageSizeSetting: MESSAGE_SIZE_SETTING }).rawMessage;
  return `${what} is larger than the ${WEBRTC_MAX_MESSAGE_BYTES}-byte limit of a message over WebRTC`;
}

export interface ChannelServer {
  receive(bytes: Uint8Array): void;
  /** The connection is gone: every call running is told. */
  close(): void;
}

export function createChannelServer(options: ChannelServerOptions): ChannelServer {
  const maxMessageBytes = Math.min(options.maxMessageBytes, WEBRTC_MAX_MESSAGE_BYTES);
  const streams = new Map<bigint, ChannelStream>();
  const used = new Set<bigint>();
  let highest = -1n;
  let connection: object = {};
  let peerOf: PeerSource | undefined;
  const forget = (id: bigint) => streams.delete(id);

  function refuse(id: bigint, code: Code, message: string): void {
    options.send(trailersFrame(id, create(StatusSchema, { code, message })));
  }

  // The number must be new: one used before (or too long ago to tell) is refused.
  function claim(id: bigint): { code: Code; message: string } | undefined {
    if (used.has(id) || id < highest - BigInt(usedWindow)) return { code: Code.InvalidArgument, message: `stream ${id} was used before` };
    if (streams.size >= WEBRTC_MAX_STREAMS) {
      return { code: Code.ResourceExhausted, message: `too many calls at once on this connection (at most ${WEBRTC_MAX_STREAMS})` };
    }
    used.add(id);
    if (id > highest) highest = id;
    // The oldest remembered goes first; numbers older than the window are refused by the check above.
    if (used.size > usedWindow) used.delete(used.values().next().value!);
    return undefined;
  }

  function start(id: bigint, headers: RequestHeaders): void {
    const problem = claim(id);
    if (problem) return refuse(id, problem.code, problem.message);
    const path = headers.method;
    const stream = new ChannelStream({
      id,
      oneMessage: options.calls.takesOneMessage(path),
      maxMessageBytes,
      send: options.send,
      drained: options.drained,
      forget,
    });
    streams.set(id, stream);
    // A new grant makes a new connection object, so the port reads the peer again.
    const peer = options.peer();
    if (peer !== peerOf) {
      peerOf = peer;
      connection = {};
    }
    const incoming = new WebRtcIncoming(callHeaders(headers), connection, peer, stream.body, stream, maxMessageBytes);
    if (!options.calls.serveIncoming(incoming, path)) {
      stream.end();
      refuse(id, Code.Unimplemented, unknownRpcMessage(options.calls.services, path.slice(0, 300)));
    }
  }

  function message(stream: ChannelStream, frame: Extract<Request["type"], { case: "message" }>["value"]): void {
    const packet = frame.packetMessage;
    if (frame.hasMessage && packet && !stream.packet(packet.data, packet.eom)) {
      stream.goAway();
      return refuse(stream.id, Code.ResourceExhausted, tooLargeMessage(stream.received, options.maxMessageBytes));
    }
    if (frame.eos) stream.endOfStream();
  }

  function receive(bytes: Uint8Array): void {
    let request: Request;
    try {
      request = fromBinary(RequestSchema, bytes);
    } catch {
      return options.onDropped("a frame that is not a proto.rpc.webrtc.v1.Request");
    }
    const id = request.stream?.id;
    if (id === undefined) return options.onDropped("a frame without a stream");
    const type = request.type;
    if (type.case === "headers") return start(id, type.value);
    if (type.case === "apiToken") return options.onApiToken(type.value);
    const stream = streams.get(id);
    if (!stream) return options.onDropped(`a frame for stream ${id}, which is not running`);
    if (type.case === "message") return message(stream, type.value);
    if (type.case === "rstStream") return stream.goAway();
    options.onDropped("a frame of no known kind");
  }

  return {
    receive,
    close() {
      for (const stream of [...streams.values()]) stream.goAway();
    },
  };
}

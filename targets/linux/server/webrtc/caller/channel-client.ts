// Unary calls as bytes over one WebRTC "data" channel, the caller's side of channel-server.ts:
// each call a new stream, its Request frames out (request-frames.ts), the Response frames of its
// stream read back (answer-reader.ts). A call cancelled, or whose answer grows past its bound, is
// reset (rst_stream), so the answering side stops; the channel going away fails every call in
// flight UNAVAILABLE. The channel itself is given as two functions, so the framing is the same
// whatever carries it.
import { fromBinary } from "@bufbuild/protobuf";
import { ConnectError } from "@connectrpc/connect";
import { Code, errorMessage } from "../../../../../core/index.js";
import { ResponseSchema, type Response } from "../../../../../proto/gen/proto/rpc/webrtc/v1/grpc_pb.js";
import { watchCancel, type RawUnaryCall } from "../../../remote/index.js";
import { createAnswerReader, type AnswerReader, type Answered } from "./answer-reader.js";
import { requestHeadersFrame, requestMessageFrames, resetFrame } from "./request-frames.js";

export interface ChannelClientOptions {
  /** Sends one frame; throws when the channel is closed. */
  send(frame: Uint8Array): void;
  /** Who is called, in errors ("remote pi"). */
  readonly peer: string;
  /** The largest packet of a message; channel-frames.ts's PACKET_BYTES by default. */
  readonly packetBytes?: number;
}

export interface ChannelClient {
  /** One unary call: the answer's bytes, or a ConnectError. */
  call(call: RawUnaryCall): Promise<Uint8Array>;
  /** One frame that came on the channel. */
  receive(bytes: Uint8Array): void;
  /** The channel is gone: every call in flight fails UNAVAILABLE saying `why`, and later ones at once. */
  close(why: string): void;
  /** Calls in flight. */
  readonly running: number;
}

interface RunningCall {
  readonly reader: AnswerReader;
  /** Ends the call; `stillRunning` when the answering side has not ended the stream, which is then reset. */
  settle(answered: Answered, stillRunning: boolean): void;
}

export function createChannelClient(options: ChannelClientOptions): ChannelClient {
  const { peer } = options;
  const running = new Map<bigint, RunningCall>();
  let nextId = 0n;
  let gone: string | undefined;
  const unavailable = (why: string) => new ConnectError(`the WebRTC connection to ${peer} is gone: ${why}`, Code.Unavailable);

  function send(call: RawUnaryCall, id: bigint): void {
    options.send(requestHeadersFrame(id, { path: call.path, metadata: call.headers, timeoutMs: call.timeoutMs }));
    for (const frame of requestMessageFrames(id, call.message, options.packetBytes)) options.send(frame);
  }

  function reset(id: bigint): void {
    try {
      options.send(resetFrame(id));
    } catch {
      // The channel closed: the answering side has let the call go already.
    }
  }

  function call(call: RawUnaryCall): Promise<Uint8Array> {
    if (gone !== undefined) return Promise.reject(unavailable(gone));
    const id = nextId++;
    return new Promise((resolve, reject) => {
      let sent = false;
      let stopWatching = noStop;
      const settle = (answered: Answered, stillRunning: boolean) => {
        if (!running.delete(id)) return;
        stopWatching();
        // The caller gave up, or the answer broke its bounds while still coming: the answering side is told to stop.
        if (stillRunning && sent) reset(id);
        if ("message" in answered) resolve(answered.message);
        else reject(answered.error);
      };
      running.set(id, { reader: createAnswerReader(peer, call.maxAnswerBytes), settle });
      stopWatching = watchCancel(call.cancel, (reason) => settle({ error: ConnectError.from(reason, Code.Canceled) }, true));
      if (!running.has(id)) return;
      try {
        send(call, id);
        sent = true;
      } catch (thrown) {
        settle({ error: new ConnectError(`the call to ${peer} could not be sent: ${errorMessage(thrown)}`, Code.Unavailable) }, false);
      }
    });
  }

  return {
    call,
    receive(bytes) {
      let response: Response;
      try {
        response = fromBinary(ResponseSchema, bytes);
      } catch {
        // Not a Response frame: it belongs to no call, and the calls go on.
        return;
      }
      const id = response.stream?.id;
      const stream = id === undefined ? undefined : running.get(id);
      const answered = stream?.reader.take(response);
      if (answered) stream!.settle(answered, response.type.case !== "trailers");
    },
    close(why) {
      gone ??= why;
      for (const { settle } of [...running.values()]) settle({ error: unavailable(why) }, false);
    },
    get running() {
      return running.size;
    },
  };
}

const noStop = () => {};

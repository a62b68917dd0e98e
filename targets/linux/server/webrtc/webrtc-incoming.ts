// A call that came over a WebRTC data channel, as the port's RPC handler takes it: its headers
// (from the call's RequestHeaders), the connection it came on, its body (the client's messages in
// their gRPC envelopes, as the channel server reassembles them), and the ways it is answered: the
// lean path's exchange, a refusal, or connect's general way (streams from the client) with its
// answer written back as Response frames.
import { create } from "@bufbuild/protobuf";
import type { UniversalHandler, UniversalServerResponse } from "@connectrpc/connect/protocol";
import { pipe, transformSplitEnvelope } from "@connectrpc/connect/protocol";
import { ConnectError } from "@connectrpc/connect";
import type { IncomingHttpHeaders } from "node:http2";
import type { Readable } from "node:stream";
import { StatusSchema } from "../../../../proto/gen/google/rpc/status_pb.js";
import { Code } from "../../../../core/index.js";
import type { CallErrorListener, ConnectCall } from "../../../../node/rpc/connect-call.js";
import type { LeanExchange } from "../../../../node/rpc/lean-exchange.js";
import type { RpcIncoming } from "../../../../node/rpc/rpc-incoming.js";
import type { RpcRefusal } from "../../../../node/rpc/rpc-refusal.js";
import type { PeerSource } from "../transport/index.js";
import type { CallStream } from "./call-stream.js";
import { trailersFrame } from "./channel-frames.js";
import { WebRtcExchange } from "./webrtc-exchange.js";

export class WebRtcIncoming implements RpcIncoming {
  readonly method = "POST";
  readonly http2 = true;

  constructor(
    readonly headers: IncomingHttpHeaders,
    /** The peer connection: the same object for every call of one connection. */
    readonly connection: object,
    readonly socket: PeerSource,
    readonly body: Readable,
    private readonly stream: CallStream,
    private readonly maxMessageBytes: number,
  ) {}

  exchange(): LeanExchange {
    return new WebRtcExchange(this.headers, this.stream);
  }

  refuse(refusal: RpcRefusal): void {
    if (this.stream.gone) return;
    this.stream.write(trailersFrame(this.stream.id, create(StatusSchema, { code: refusal.code, message: refusal.message })));
    this.stream.end();
  }

  connect(method: UniversalHandler, path: string, onError: CallErrorListener, call: ConnectCall): void {
    const gone = new AbortController();
    const onGone = () => gone.abort(new ConnectError("the client went away", Code.Canceled));
    this.stream.onGone(onGone);
    const header = new Headers();
    for (const [key, value] of Object.entries(this.headers)) if (!key.startsWith(":") && typeof value === "string") header.set(key, value);
    const signal = call.deadline ? AbortSignal.any([gone.signal, call.deadline]) : gone.signal;
    const request = { httpVersion: "2.0", method: "POST", url: `http://webrtc${path}`, header, body: call.body, signal, contextValues: call.values };
    method(request)
      .then((answer) => this.writeAnswer(answer))
      .catch((reason: unknown) => {
        if (ConnectError.from(reason).code !== Code.Aborted) onError(reason, path);
        this.refuse({ code: Code.Internal, message: "internal error" });
      })
      .finally(() => this.stream.offGone(onGone));
  }

  expectContinue(): void {
    // A data channel has no "100 Continue": the body comes as the client sends it.
  }

  onClose(listener: () => void): void {
    this.stream.onClose(listener);
  }

  closeAfterAnswer(): void {
    // Frames for a stream that has answered are dropped by the channel server.
  }

  // connect's answer through the lean path's own writer (webrtc-exchange.ts): headers with the
  // first message, each message as it comes (waiting while the channel is full), the trailers;
  // trailers alone when connect's headers carry the status.
  private async writeAnswer(answer: UniversalServerResponse): Promise<void> {
    const exchange = new WebRtcExchange(this.headers, this.stream);
    const header = answer.header ?? new Headers();
    if (header.has("grpc-status") || answer.body === undefined) return exchange.finish(header);
    exchange.start(header);
    const body = answer.body as AsyncIterable<Uint8Array>;
    for await (const envelope of pipe(body, transformSplitEnvelope(this.maxMessageBytes))) {
      if (exchange.gone()) return;
      if (!exchange.send(envelope.data)) await exchange.drained();
    }
    exchange.finish(answer.trailer ?? new Headers());
  }
}

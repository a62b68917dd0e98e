// The lean path's side of a call that came over a WebRTC data channel: the same answers as over
// HTTP/2 (headers, each message, trailers with the status), as proto.rpc.webrtc.v1 Response
// frames on the call's stream. The headers go out with the first message; an answer without one
// is trailers alone, the headers' metadata with them, as gRPC's trailers-only answer: the Viam
// clients drop an error that comes after headers on a stream.
import type { IncomingHttpHeaders } from "node:http2";
import type { LeanExchange } from "../../../../node/rpc/lean-exchange.js";
import type { Outcome } from "../../../../node/rpc/lean-answer.js";
import type { CallStream } from "./call-stream.js";
import { headersFrame, messageFrames, metadataOf, statusOf, trailersFrame } from "./channel-frames.js";

export class WebRtcExchange implements LeanExchange {
  readonly protocol = "grpc";
  private headersSent = false;
  private header: Headers | undefined;

  constructor(
    readonly headers: IncomingHttpHeaders,
    private readonly stream: CallStream,
  ) {}

  get started(): boolean {
    return this.headersSent || this.header !== undefined;
  }

  gone(): boolean {
    return this.stream.gone;
  }

  watch(listener: () => void): void {
    this.stream.onGone(listener);
  }

  release(listener: () => void): void {
    this.stream.offGone(listener);
  }

  answer(outcome: Outcome): void {
    if (this.started || this.stream.gone) return;
    this.start(outcome.header);
    if (outcome.message) this.send(outcome.message);
    this.finish(outcome.trailer);
  }

  start(header: Headers): void {
    this.header = header;
  }

  send(message: Uint8Array): boolean {
    if (!this.headersSent) {
      this.headersSent = true;
      this.stream.write(headersFrame(this.stream.id, this.header ?? new Headers()));
    }
    let room = true;
    for (const frame of messageFrames(this.stream.id, message)) room = this.stream.write(frame) && room;
    return room;
  }

  drained(): Promise<void> {
    return this.stream.drained();
  }

  finish(trailer: Headers): void {
    if (this.stream.gone) return;
    const metadata = this.headersSent ? trailer : withHeader(this.header, trailer);
    this.stream.write(trailersFrame(this.stream.id, statusOf(trailer), metadataOf(metadata)));
    this.stream.end();
  }
}

// The headers never sent, told with the trailers.
function withHeader(header: Headers | undefined, trailer: Headers): Headers {
  if (!header) return trailer;
  const merged = new Headers(header);
  trailer.forEach((value, key) => merged.append(key, value));
  return merged;
}

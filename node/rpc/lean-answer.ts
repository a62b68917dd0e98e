// How the lean path writes an answer: headers, each message in its 5-byte envelope, and the
// trailers carrying the status (for gRPC-web, as a trailer frame in the body), written by connect's
// own trailer code so a client sees the same statuses, messages and details as from connect; and
// how it tells that the client has gone or can take more.
import { ConnectError } from "@connectrpc/connect";
import { setTrailerStatus } from "@connectrpc/connect/protocol-grpc";
import { trailerFlag, trailerSerialize } from "@connectrpc/connect/protocol-grpc-web";
import { Code } from "../../core/index.js";
import type { HttpResponse } from "./http-types.js";
import { headerRecord, recordHeaders, type HeaderRecord } from "./record-headers.js";

export type LeanProtocol = "grpc" | "grpc-web";

export const responseContentType: Record<LeanProtocol, string> = {
  grpc: "application/grpc+proto",
  "grpc-web": "application/grpc-web+proto",
};

/** Whether the client has gone: its stream (HTTP/2) or its connection (HTTP/1.1) is closed. */
export function isGone(res: HttpResponse): boolean {
  return "stream" in res ? res.stream.destroyed : res.destroyed;
}

/** Resolves when `res` can take more, or has closed (the loop then sees it gone). */
export function drained(res: HttpResponse): Promise<void> {
  return new Promise((resolve) => {
    if (isGone(res)) return resolve();
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

export interface Outcome {
  readonly header: Headers;
  readonly trailer: Headers;
  /** The answer's bytes; none when the call failed. */
  readonly message?: Uint8Array;
}

// As connect does: a ConnectError's status, metadata and details go in the trailer; anything
// else is an internal error whose text stays here.
export function errorAnswer(error: unknown, header?: Headers): Outcome {
  const connectError = error instanceof ConnectError ? error : new ConnectError("internal error", Code.Internal, undefined, undefined, error);
  return { header: header ?? recordHeaders(), trailer: setTrailerStatus(recordHeaders(), connectError) };
}

export function answerHeader(header: Headers, protocol: LeanProtocol): HeaderRecord {
  const record = headerRecord(header);
  record["content-type"] ??= responseContentType[protocol];
  return record;
}

export function writeAnswer(res: HttpResponse, protocol: LeanProtocol, outcome: Outcome): void {
  if (res.headersSent || res.writableEnded) return;
  res.writeHead(200, answerHeader(outcome.header, protocol));
  if (!outcome.message) return writeTrailers(res, protocol, outcome.trailer);
  if (protocol === "grpc") {
    res.addTrailers(trailerRecord(outcome.trailer));
    return void res.end(envelope(0, outcome.message));
  }
  // One buffer: the message's frame, then the trailer's.
  const trailerFrame = grpcWebTrailer(outcome.trailer);
  const body = Buffer.allocUnsafe(5 + outcome.message.length + trailerFrame.length);
  body[0] = 0;
  body.writeUInt32BE(outcome.message.length, 1);
  body.set(outcome.message, 5);
  body.set(trailerFrame, 5 + outcome.message.length);
  res.end(body);
}

/** Ends an answer whose headers (and any messages) are written: its status and trailers. */
export function writeTrailers(res: HttpResponse, protocol: LeanProtocol, trailer: Headers): void {
  if (protocol === "grpc") {
    res.addTrailers(trailerRecord(trailer));
    return void res.end();
  }
  res.end(grpcWebTrailer(trailer));
}

function trailerRecord(trailer: Headers): HeaderRecord {
  const record = headerRecord(trailer);
  record["grpc-status"] ??= "0";
  return record;
}

function grpcWebTrailer(trailer: Headers): Buffer {
  const record = trailerRecord(trailer);
  const onlyOk = record["grpc-status"] === "0" && Object.keys(record).length === 1;
  return onlyOk ? okTrailerFrame : envelope(trailerFlag, trailerSerialize(recordHeaders(record)));
}

// The trailer of almost every gRPC-web answer, framed once.
const okTrailerFrame = envelope(trailerFlag, trailerSerialize(recordHeaders({ "grpc-status": "0" })));

export function envelope(flags: number, bytes: Uint8Array): Buffer {
  const frame = Buffer.allocUnsafe(5 + bytes.length);
  frame[0] = flags;
  frame.writeUInt32BE(bytes.length, 1);
  frame.set(bytes, 5);
  return frame;
}

// What the lean path answers with: headers, each message in its 5-byte envelope, and the
// trailers carrying the status (for gRPC-web, as a trailer frame in the body), made by connect's
// own trailer code so a client sees the same statuses, messages and details as from connect.
// lean-exchange.ts writes them.
import { ConnectError } from "@connectrpc/connect";
import { setTrailerStatus } from "@connectrpc/connect/protocol-grpc";
import { trailerFlag, trailerSerialize } from "@connectrpc/connect/protocol-grpc-web";
import { Code } from "../../core/index.js";
import { headerRecord, recordHeaders, type HeaderRecord } from "./record-headers.js";

export type LeanProtocol = "grpc" | "grpc-web";

export const responseContentType: Record<LeanProtocol, string> = {
  grpc: "application/grpc+proto",
  "grpc-web": "application/grpc-web+proto",
};

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

/** A gRPC-web answer's body: its message's frame, if any, then the trailer's, in one buffer. */
export function grpcWebBody(outcome: Outcome): Buffer {
  const trailerFrame = grpcWebTrailer(outcome.trailer);
  if (!outcome.message) return trailerFrame;
  const body = Buffer.allocUnsafe(5 + outcome.message.length + trailerFrame.length);
  body[0] = 0;
  body.writeUInt32BE(outcome.message.length, 1);
  body.set(outcome.message, 5);
  body.set(trailerFrame, 5 + outcome.message.length);
  return body;
}

/** The trailers as written: the status (0 unless set) and whatever the call added. */
export function trailerRecord(trailer: Headers): HeaderRecord {
  const record = headerRecord(trailer);
  record["grpc-status"] ??= "0";
  return record;
}

/** The frame that ends a gRPC-web answer: its trailers. */
export function grpcWebTrailer(trailer: Headers): Buffer {
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

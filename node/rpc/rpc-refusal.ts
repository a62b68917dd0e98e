// Answering an RPC-shaped request with a status without running it (no token, a body declared
// too large, a method nobody serves), in the caller's own protocol, and without reading its
// body: a body nobody reads is never read. Over HTTP/1.1 the rest of an unread body would have to
// be read before the next request on the connection, so unless it is small the connection closes
// after the answer (a body of unknown length is read on and dropped up to the same bound first);
// over HTTP/2 Node resets just that stream (NO_ERROR) once the answer is sent.
import http2, { type ServerHttp2Stream } from "node:http2";
import { codeToHttpStatus, codeToString } from "@connectrpc/connect/protocol-connect";
import type { Code } from "../../core/index.js";
import { boundText, ERROR_MESSAGE_MAX_CHARS } from "./bounded-text.js";
import { encodeGrpcMessage } from "./grpc-message.js";
import type { HttpRequest, HttpResponse } from "./http-types.js";

/** A status to answer an RPC-shaped request with, instead of running it. */
export interface RpcRefusal {
  readonly code: Code;
  readonly message: string;
}

/** A request whose credentials passed: who it is (the key id), for the call's interceptors. */
export interface RpcAdmission {
  readonly entity: string;
}

/** What a credentials check answers: a refusal, an admission, or nothing (no check applies). */
export type RpcCheck = RpcRefusal | RpcAdmission | undefined;

export function isRefusal(check: RpcCheck): check is RpcRefusal {
  return check !== undefined && "code" in check;
}

/** Answers `req` with `refusal` in its protocol; `connectStatus` overrides Connect's HTTP status. */
export function answerRefusal(req: HttpRequest, res: HttpResponse, refusal: RpcRefusal, connectStatus?: number): void {
  // Gone already: the client left while its call was being checked.
  if (res.headersSent || res.writableEnded || isClosed(res)) return;
  const unread = unreadBodyBytes(req);
  const chunkedHttp1 = unread === Infinity && !("stream" in req);
  if (unread > smallBodyBytes && !chunkedHttp1) closeAfterAnswer(res);
  const contentType = req.headers["content-type"] ?? "";
  if (contentType.startsWith("application/grpc-web")) {
    // Trailers-only: the status travels in the headers, which CORS exposes to browsers.
    res.writeHead(200, {
      "content-type": contentType.split(";")[0]!,
      "grpc-status": String(refusal.code),
      "grpc-message": encodeGrpcMessage(refusal.message),
    });
    res.end();
  } else if (contentType.startsWith("application/grpc")) {
    res.writeHead(200, { "content-type": "application/grpc" });
    res.addTrailers({ "grpc-status": String(refusal.code), "grpc-message": encodeGrpcMessage(refusal.message) });
    res.end();
  } else {
    const body = JSON.stringify({ code: codeToString(refusal.code), message: boundText(refusal.message, ERROR_MESSAGE_MAX_CHARS) });
    res.writeHead(connectStatus ?? codeToHttpStatus(refusal.code), { "content-type": "application/json" });
    res.end(body);
  }
  if (chunkedHttp1) dropUnreadBody(req, res);
}

/**
 * An HTTP/1.1 body of unknown length (chunked) after the answer: read on and dropped, as Node
 * does after any answer, so that a client still writing it (most do, before they read) hears
 * the answer rather than a broken pipe; past the small-body bound the connection closes.
 */
function dropUnreadBody(req: HttpRequest, res: HttpResponse): void {
  let seen = 0;
  const onData = (chunk: Buffer) => {
    seen += chunk.length;
    if (seen <= smallBodyBytes) return;
    req.off("data", onData);
    const close = () => req.socket.destroy();
    if (res.writableFinished) close();
    else res.once("finish", close);
  };
  req.on("data", onData);
}

// An unread body this small is read and dropped by Node, and the connection kept.
const smallBodyBytes = 64 * 1024;

/** How much body the request announces that has not been read: Infinity when it does not say. */
export function unreadBodyBytes(req: HttpRequest): number {
  if (req.readableEnded) return 0;
  const length = req.headers["content-length"];
  if (length !== undefined) return /^\d+$/.test(length) ? Number(length) : Infinity;
  // HTTP/1.1 without a length has a body only when chunked; an HTTP/2 stream may always carry one.
  return "stream" in req || req.headers["transfer-encoding"] !== undefined ? Infinity : 0;
}

/**
 * Stops reading what is left of the body once the answer is written: HTTP/1.1 closes the
 * connection; HTTP/2 resets the stream with NO_ERROR, which tells the client its request is
 * answered and the rest is not wanted.
 */
export function closeAfterAnswer(res: HttpResponse): void {
  if (!("stream" in res)) {
    if (!res.headersSent) res.setHeader("connection", "close");
    return;
  }
  closeStreamAfterAnswer(res.stream);
}

/** An HTTP/2 stream's part of closeAfterAnswer: its reset with NO_ERROR once the answer is out. */
export function closeStreamAfterAnswer(stream: ServerHttp2Stream): void {
  // After the stream's own 'finish' (the response object says 'finish' only once the stream
  // has closed), and a little later still: Node writes the trailers on a later turn of the event
  // loop, and a reset submitted before then would drop them.
  const close = () => {
    if (!stream.closed && !stream.destroyed) stream.close(http2.constants.NGHTTP2_NO_ERROR);
  };
  const later = () => setTimeout(close, 10);
  if (stream.writableFinished) later();
  else stream.once("finish", later);
}

function isClosed(res: HttpResponse): boolean {
  return "stream" in res ? res.stream.destroyed || res.stream.closed : res.destroyed;
}

// One unary gRPC call carried as bytes: the request message's bytes go out in one frame, the
// answer's bytes come back as they were written, nothing decoded or encoded on the way. A module
// already speaks gRPC, so a call for one of its resources passes through svc-server this way, and
// so does a call for a resource of a remote part (with its credentials, and a bound on the answer).
// The peer's status becomes a ConnectError with its code and message; a peer that cannot be
// reached, or that breaks the protocol, is UNAVAILABLE / INTERNAL; the caller's cancellation resets
// the stream (CANCEL), which the peer hears as its call being cancelled.
import { ConnectError } from "@connectrpc/connect";
import http2 from "node:http2";
import { Code } from "../../../core/index.js";

export interface RawUnaryCall {
  /** "/package.Service/Method" */
  readonly path: string;
  /** The request message's bytes (no frame). */
  readonly message: Uint8Array;
  /** Ends the call early; `whenAborted` is the call's own control (call-control.ts), cheaper than a signal. */
  readonly cancel?: AbortSignal | { whenAborted(listener: (reason: unknown) => void): () => void };
  /** Passed on as `grpc-timeout`. */
  readonly timeoutMs?: number;
  /** Request headers besides the protocol's own (`authorization` for a remote part). */
  readonly headers?: Readonly<Record<string, string>>;
  /** An answer larger than this is refused (RESOURCE_EXHAUSTED) as it arrives; no bound by default. */
  readonly maxAnswerBytes?: number;
}

/**
 * The answer message's bytes, or a thrown ConnectError. `session` gives the connection to call on,
 * dialling it if needed; `peer` names who is called in errors ("the module", "remote pi").
 */
export function rawUnary(session: () => http2.ClientHttp2Session, call: RawUnaryCall, peer = "the module"): Promise<Uint8Array> {
  const headers: http2.OutgoingHttpHeaders = { ...call.headers, ":method": "POST", ":path": call.path, "content-type": "application/grpc+proto", te: "trailers" };
  if (call.timeoutMs !== undefined) headers["grpc-timeout"] = `${Math.max(1, Math.ceil(call.timeoutMs))}m`;
  let stream: http2.ClientHttp2Stream;
  try {
    stream = session().request(headers);
  } catch (cause) {
    return Promise.reject(new ConnectError(`${peer} could not be reached: ${(cause as Error).message}`, Code.Unavailable, undefined, undefined, cause));
  }
  const frame = Buffer.allocUnsafe(5 + call.message.length);
  frame[0] = 0;
  frame.writeUInt32BE(call.message.length, 1);
  frame.set(call.message, 5);
  const answer = readAnswer(stream, call.cancel, peer, call.maxAnswerBytes ?? Infinity);
  stream.end(frame);
  return answer;
}

function readAnswer(stream: http2.ClientHttp2Stream, cancel: RawUnaryCall["cancel"], peer: string, maxBytes: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let status: string | undefined;
    let message: string | undefined;
    let httpStatus: number | undefined;
    const note = (h: http2.IncomingHttpHeaders) => {
      if (typeof h[":status"] === "number") httpStatus = h[":status"];
      if (typeof h["grpc-status"] === "string") status = h["grpc-status"];
      if (typeof h["grpc-message"] === "string") message = h["grpc-message"];
    };
    const onAbort = (reason: unknown) => {
      stream.close(http2.constants.NGHTTP2_CANCEL);
      reject(ConnectError.from(reason, Code.Canceled));
    };
    const stopWatching = watchCancel(cancel, onAbort);
    stream.on("response", note);
    stream.on("trailers", note);
    stream.on("data", (chunk: Buffer) => {
      received += chunk.length;
      if (received <= maxBytes + 5) return void chunks.push(chunk);
      stream.close(http2.constants.NGHTTP2_CANCEL);
      reject(new ConnectError(`${peer} answered with more than ${maxBytes} bytes`, Code.ResourceExhausted));
    });
    stream.on("error", (error) => reject(new ConnectError(`the call to ${peer} failed: ${error.message}`, Code.Unavailable)));
    stream.on("close", () => {
      stopWatching();
      if (status === undefined && httpStatus !== undefined && httpStatus !== 200) {
        return reject(new ConnectError(`${peer} answered HTTP ${httpStatus}`, httpStatusCode(httpStatus)));
      }
      if (status === undefined) return reject(new ConnectError(`${peer} answered without a gRPC status`, Code.Internal));
      if (status !== "0") return reject(new ConnectError(decodeMessage(message ?? ""), statusCode(status)));
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      if (body.length < 5 || body[0] !== 0 || body.readUInt32BE(1) !== body.length - 5) {
        return reject(new ConnectError(`${peer}'s answer is not one uncompressed gRPC message`, Code.Internal));
      }
      resolve(body.subarray(5));
    });
  });
}

/** Calls `onAbort` once when `cancel` aborts (at once when it has); returns what stops watching. */
export function watchCancel(cancel: RawUnaryCall["cancel"], onAbort: (reason: unknown) => void): () => void {
  if (cancel === undefined) return noStop;
  if (!("addEventListener" in cancel)) return cancel.whenAborted(onAbort);
  if (cancel.aborted) {
    onAbort(cancel.reason);
    return noStop;
  }
  const listener = () => onAbort(cancel.reason);
  cancel.addEventListener("abort", listener, { once: true });
  return () => cancel.removeEventListener("abort", listener);
}

const noStop = () => {};

// An HTTP status without a gRPC one, read as gRPC clients read it (gRPC's http-grpc-status-mapping).
export function httpStatusCode(status: number): Code {
  const mapped: Record<number, Code> = { 400: Code.Internal, 401: Code.Unauthenticated, 403: Code.PermissionDenied, 404: Code.Unimplemented };
  if (mapped[status] !== undefined) return mapped[status];
  return status === 429 || status === 502 || status === 503 || status === 504 ? Code.Unavailable : Code.Unknown;
}

// A status outside gRPC's codes is UNKNOWN, as gRPC clients read it.
export function statusCode(text: string): Code {
  const code = Number(text);
  return Number.isInteger(code) && code >= 1 && code <= 16 ? (code as Code) : Code.Unknown;
}

/** A grpc-message as sent (percent-encoded), in words; as it came when it does not decode. */
export function decodeMessage(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

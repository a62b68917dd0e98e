// One unary gRPC call carried as bytes: the request message's bytes go out in one frame, the
// answer's bytes come back as they were written, nothing decoded or encoded on the way. A module
// already speaks gRPC, so a call for one of its resources passes through svc-server this way.
// The peer's status becomes a ConnectError with its code and message; a peer that cannot be
// reached, or that breaks the protocol, is UNAVAILABLE / INTERNAL; the caller's signal resets the
// stream (CANCEL), which the peer hears as its call being cancelled.
import { ConnectError } from "@connectrpc/connect";
import type { Http2SessionManager } from "@connectrpc/connect-node";
import http2 from "node:http2";
import { Code } from "../../../core/index.js";

export interface RawUnaryCall {
  /** "/package.Service/Method" */
  readonly path: string;
  /** The request message's bytes (no frame). */
  readonly message: Uint8Array;
  readonly signal?: AbortSignal;
  /** Passed on as `grpc-timeout`. */
  readonly timeoutMs?: number;
}

/** The answer message's bytes, or a thrown ConnectError. */
export async function rawUnary(sessions: Http2SessionManager, call: RawUnaryCall): Promise<Uint8Array> {
  if (call.signal?.aborted) throw ConnectError.from(call.signal.reason, Code.Canceled);
  const headers: http2.OutgoingHttpHeaders = { "content-type": "application/grpc+proto", te: "trailers" };
  if (call.timeoutMs !== undefined) headers["grpc-timeout"] = `${Math.max(1, Math.ceil(call.timeoutMs))}m`;
  let stream: http2.ClientHttp2Stream;
  try {
    stream = await sessions.request("POST", call.path, headers, {});
  } catch (cause) {
    throw new ConnectError(`the module could not be reached: ${(cause as Error).message}`, Code.Unavailable, undefined, undefined, cause);
  }
  const frame = Buffer.allocUnsafe(5 + call.message.length);
  frame[0] = 0;
  frame.writeUInt32BE(call.message.length, 1);
  frame.set(call.message, 5);
  stream.end(frame);
  return readAnswer(sessions, stream, call.signal);
}

function readAnswer(sessions: Http2SessionManager, stream: http2.ClientHttp2Stream, signal: AbortSignal | undefined): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let status: string | undefined;
    let message: string | undefined;
    const note = (h: http2.IncomingHttpHeaders) => {
      if (typeof h["grpc-status"] === "string") status = h["grpc-status"];
      if (typeof h["grpc-message"] === "string") message = h["grpc-message"];
    };
    const onAbort = () => {
      stream.close(http2.constants.NGHTTP2_CANCEL);
      reject(ConnectError.from(signal!.reason, Code.Canceled));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    stream.on("response", note);
    stream.on("trailers", note);
    stream.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      sessions.notifyResponseByteRead(stream);
    });
    stream.on("error", (error) => reject(new ConnectError(`the call to the module failed: ${error.message}`, Code.Unavailable)));
    stream.on("close", () => {
      signal?.removeEventListener("abort", onAbort);
      if (status === undefined) return reject(new ConnectError("the module answered without a gRPC status", Code.Internal));
      if (status !== "0") return reject(new ConnectError(decodeMessage(message ?? ""), statusCode(status)));
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      if (body.length < 5 || body[0] !== 0 || body.readUInt32BE(1) !== body.length - 5) {
        return reject(new ConnectError("the module's answer is not one uncompressed gRPC message", Code.Internal));
      }
      resolve(body.subarray(5));
    });
  });
}

// A status outside gRPC's codes is UNKNOWN, as gRPC clients read it.
function statusCode(text: string): Code {
  const code = Number(text);
  return Number.isInteger(code) && code >= 1 && code <= 16 ? (code as Code) : Code.Unknown;
}

function decodeMessage(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

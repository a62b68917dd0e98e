// The whole body of a call that takes one message, gathered from Node's 'data' events under the
// same bounds readRequestBody keeps for a stream of messages: the message's declared length is checked
// from its prefix as soon as the prefix arrives, the body is cut off the moment it passes its
// limit, and a body still arriving at the call's deadline ends the call with the deadline's
// error. A body left partly unread is reported, so the connection can be closed rather than read
// to its end.
import type { Readable } from "node:stream";
import { tooLarge, type BodyLimit } from "./rpc-limits.js";
import { createPrefixCheck } from "./request-body.js";

export interface CollectBodyOptions {
  /** The body is a length-prefixed message (gRPC, gRPC-web, Connect streaming): its prefix is checked. */
  readonly enveloped: boolean;
  /** The message's limit. */
  readonly limit: BodyLimit;
  /** The whole body's limit: one message and its prefix. */
  readonly maxBodyBytes: number;
  /** Aborted at the call's deadline; its reason is the error. */
  readonly deadline?: AbortSignal;
  /** Told when reading stops before the body's end. */
  readonly onAbandoned: () => void;
}

/** Resolves with the body; rejects with the bound it broke, the deadline, or the stream's error. */
export function collectBody(req: Readable, options: CollectBodyOptions): Promise<Buffer> {
  const { maxBodyBytes, deadline } = options;
  const checkPrefix = options.enveloped ? createPrefixCheck(options.limit) : undefined;
  return new Promise((resolve, reject) => {
    let first: Buffer | undefined;
    let chunks: Buffer[] | undefined;
    let total = 0;

    const stop = (error: unknown) => {
      detach();
      options.onAbandoned();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      try {
        if (total > maxBodyBytes) throw tooLarge(`request body of at least ${total} bytes`, options.limit);
        // Only the first prefix can be declared within one message's limit.
        if (checkPrefix && total - chunk.length < 5) checkPrefix(chunk.subarray(0, 5 - (total - chunk.length)));
      } catch (error) {
        return stop(error);
      }
      if (first === undefined) first = chunk;
      else (chunks ??= [first]).push(chunk);
    };
    const onEnd = () => {
      detach();
      resolve(chunks ? Buffer.concat(chunks, total) : (first ?? Buffer.alloc(0)));
    };
    const onError = (error: Error) => stop(error);
    const onDeadline = () => stop(deadline!.reason);
    const detach = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      deadline?.removeEventListener("abort", onDeadline);
    };

    if (deadline?.aborted) return stop(deadline.reason);
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("error", onError);
    deadline?.addEventListener("abort", onDeadline, { once: true });
  });
}

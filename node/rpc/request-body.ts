// A call's request body as connect reads it, held to the limits while it is read: every gRPC
// message's declared length is checked from its 5-byte prefix before connect sees the prefix (so
// nothing is allocated for a message that is too large), the whole body of a single-message call
// is cut off as soon as it passes its limit, and a body still arriving at the call's deadline
// ends the call with DEADLINE_EXCEEDED. Nothing is buffered here: chunks pass through as they
// come. A body left partly unread (cut off, or the call ended early) is reported, so the
// connection can be closed rather than read to its end.
import type { Readable } from "node:stream";
import type { HttpRequest, HttpResponse } from "./http-types.js";
import { tooLarge, type BodyLimit } from "./rpc-limits.js";
import { untilAborted } from "./until-aborted.js";

export interface RequestBodyOptions {
  /** True for a sequence of length-prefixed messages (gRPC, gRPC-web, Connect streaming). */
  readonly enveloped: boolean;
  /** The message's limit (a declared prefix above it is refused). */
  readonly limit: BodyLimit;
  /** Largest whole body; undefined for a stream of messages, which may go on. */
  readonly maxBodyBytes: number | undefined;
  /** Aborted at the call's deadline; its reason is thrown. */
  readonly deadline?: AbortSignal;
  /** Told when reading stops before the body's end. */
  readonly onAbandoned: () => void;
}

export async function* readRequestBody(req: Readable, options: RequestBodyOptions): AsyncGenerator<Uint8Array> {
  const { limit, maxBodyBytes, deadline } = options;
  const checkPrefixes = options.enveloped ? createPrefixCheck(limit) : undefined;
  const chunks = req.iterator({ destroyOnReturn: false });
  let total = 0;
  let ended = false;
  try {
    for (;;) {
      const next = await (deadline ? untilAborted(chunks.next(), deadline) : chunks.next());
      if (next.done) {
        ended = true;
        return;
      }
      const chunk = next.value as Buffer;
      total += chunk.length;
      if (maxBodyBytes !== undefined && total > maxBodyBytes) {
        throw tooLarge(`request body of at least ${total} bytes`, limit);
      }
      checkPrefixes?.(chunk);
      yield chunk;
    }
  } finally {
    if (!ended) {
      // A read still waiting settles when data comes or the stream closes; nobody waits for it.
      chunks.return?.().catch(() => {});
      options.onAbandoned();
    }
  }
}

/**
 * A client that asked before sending its body (Expect: 100-continue) is told to go on only when
 * the body is wanted; a refusal goes out instead of the 100, and the body is never sent.
 */
export function continueIfExpected(req: HttpRequest, res: HttpResponse): void {
  if (req.headers.expect?.toLowerCase() === "100-continue" && !res.headersSent) res.writeContinue();
}

/**
 * Follows the message boundaries through the chunks: 5 bytes of prefix (flags, then the length,
 * big-endian), then that many bytes of message; throws RESOURCE_EXHAUSTED for a declared length
 * over the limit.
 */
export function createPrefixCheck(limit: BodyLimit): (chunk: Uint8Array) => void {
  const prefix = new Uint8Array(5);
  let prefixSeen = 0;
  let messageLeft = 0;
  return (chunk) => {
    let i = 0;
    while (i < chunk.length) {
      if (messageLeft > 0) {
        const take = Math.min(messageLeft, chunk.length - i);
        messageLeft -= take;
        i += take;
        continue;
      }
      prefix[prefixSeen++] = chunk[i++]!;
      if (prefixSeen < 5) continue;
      prefixSeen = 0;
      messageLeft = ((prefix[1]! << 24) >>> 0) + (prefix[2]! << 16) + (prefix[3]! << 8) + prefix[4]!;
      if (messageLeft > limit.maxMessageBytes) throw tooLarge(`request message of ${messageLeft} bytes`, limit);
    }
  };
}

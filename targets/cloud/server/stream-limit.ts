// How many streams (revision watches, log tails) one caller may hold open at once, whatever
// connections they come over. A stream costs svc-cloud a subscription and some memory for as long
// as it lasts, so a key that opened them without end (a loop gone wrong, or an attacker with a
// leaked key) would hold the service's memory; past the bound a new stream is refused with
// RESOURCE_EXHAUSTED until one of the caller's streams ends. Runs after the auth interceptor: the
// caller is the principal it found.
import type { Interceptor } from "@connectrpc/connect";
import { Code, SvcError } from "../../../core/index.js";
import { principalKey } from "./caller.js";

/** Streams one caller (a key or a person) may hold open at once: half of what one connection may carry. */
export const MAX_STREAMS_PER_CALLER = 128;

export function createStreamLimitInterceptor(max = MAX_STREAMS_PER_CALLER): Interceptor {
  const open = new Map<string, number>();
  return (next) => async (req) => {
    const principal = req.contextValues.get(principalKey);
    if (!req.stream || principal === undefined) return next(req);
    const { subject } = principal;
    const held = open.get(subject) ?? 0;
    if (held >= max) throw new SvcError(Code.ResourceExhausted, `this caller holds ${max} streams open, the most one caller may; end one before opening another`);
    open.set(subject, held + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const left = open.get(subject)! - 1;
      if (left === 0) open.delete(subject);
      else open.set(subject, left);
    };
    // However the stream ends: run out, failed, or the caller gone before it began.
    req.signal.addEventListener("abort", release, { once: true });
    try {
      const res = await next(req);
      return res.stream ? { ...res, message: releasedAtEnd(res.message, release) } : (release(), res);
    } catch (thrown) {
      release();
      throw thrown;
    }
  };
}

async function* releasedAtEnd<T>(messages: AsyncIterable<T>, release: () => void): AsyncGenerator<T> {
  try {
    yield* messages;
  } finally {
    release();
  }
}

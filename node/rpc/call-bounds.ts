// The interceptor the API port puts around every call, outermost: a call with a deadline ends
// at it with DEADLINE_EXCEEDED even when its handler pays no attention to its signal (the
// handler's signal is aborted all the same), between the messages of a stream as well; and an
// error's message is bounded, since it may echo what the caller sent (a 10 MB resource name in a
// NOT_FOUND) and would otherwise go back whole in a header or an error body.
import { ConnectError, createContextKey, type Interceptor } from "@connectrpc/connect";
import { Code } from "../../core/index.js";
import { boundText, ERROR_MESSAGE_MAX_CHARS } from "./bounded-text.js";
import { untilAborted } from "./until-aborted.js";

/** Set for a call that has a deadline (read by the interceptor, so calls without pay nothing for it). */
export const callHasDeadlineKey = createContextKey<boolean>(false, { description: "svc call has a deadline" });

export function createCallBoundsInterceptor(): Interceptor {
  // Not async: around every call, one `then` is the whole cost.
  return (next) => (req) => {
    const deadline = req.contextValues.get(callHasDeadlineKey) ? req.signal : undefined;
    let pending: ReturnType<typeof next>;
    try {
      pending = next(req);
    } catch (error) {
      return Promise.reject(boundError(error));
    }
    return (deadline ? untilDeadline(pending, deadline) : pending).then(
      (res) => (res.stream ? { ...res, message: boundedStream(res.message, deadline) } : res),
      (error: unknown) => {
        throw boundError(error);
      },
    );
  };
}

async function* boundedStream<T>(messages: AsyncIterable<T>, deadline: AbortSignal | undefined): AsyncGenerator<T> {
  const it = messages[Symbol.asyncIterator]();
  let done = false;
  try {
    for (;;) {
      const next = await (deadline ? untilDeadline(it.next(), deadline) : it.next());
      if (next.done) {
        done = true;
        return;
      }
      yield next.value;
    }
  } catch (error) {
    throw boundError(error);
  } finally {
    if (!done) it.return?.()?.catch(() => {});
  }
}

/** `pending`, unless the signal is aborted for the deadline first: then that DEADLINE_EXCEEDED. */
function untilDeadline<T>(pending: Promise<T>, signal: AbortSignal): Promise<T> {
  return untilAborted(pending, signal, isDeadline);
}

// Other aborts (the client went away, the server is stopping) let the handler finish as it will.
function isDeadline(reason: unknown): boolean {
  return reason instanceof ConnectError && reason.code === Code.DeadlineExceeded;
}

// Only ConnectErrors carry their message to the caller; connect turns anything else into
// "internal error" itself.
function boundError(error: unknown): unknown {
  if (!(error instanceof ConnectError) || error.rawMessage.length <= ERROR_MESSAGE_MAX_CHARS) return error;
  const bounded = new ConnectError(boundText(error.rawMessage, ERROR_MESSAGE_MAX_CHARS), error.code, error.metadata, undefined, error.cause);
  bounded.details.push(...error.details);
  return bounded;
}

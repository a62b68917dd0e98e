// How a call on the lean path is ended, by the transport (the client went away, the deadline
// passed, the server is stopping) or by the machine (the call's operation was cancelled), without
// an AbortController and its listeners per call when nobody asks for a signal. Interceptors find
// it in the call's context values; a call served by connect has none and uses its signal.
import { createContextKey } from "@connectrpc/connect";

export interface CallControl {
  /** Aborted with the call; made on first use. */
  readonly signal: AbortSignal;
  readonly aborted: boolean;
  /** Ends the call from inside (its signal aborts with `reason`); the transport's listener is not told. */
  abort(reason: unknown): void;
  /** The one listener told when the transport ends the call (at once if it has). */
  onTransportAbort(listener: (reason: unknown) => void): void;
}

export interface TransportCallControl extends CallControl {
  /** The transport ends the call: the signal aborts and the listener is told. */
  abortFromTransport(reason: unknown): void;
}

export const callControlKey = createContextKey<CallControl | undefined>(undefined, { description: "svc call control" });

export function createCallControl(): TransportCallControl {
  let controller: AbortController | undefined;
  let aborted = false;
  let reason: unknown;
  let listener: ((reason: unknown) => void) | undefined;

  const control: TransportCallControl = {
    get signal() {
      if (!controller) {
        controller = new AbortController();
        if (aborted) controller.abort(reason);
      }
      return controller.signal;
    },
    get aborted() {
      return aborted;
    },
    abort(why) {
      if (aborted) return;
      aborted = true;
      reason = why;
      controller?.abort(why);
    },
    onTransportAbort(fn) {
      listener = fn;
      if (aborted) fn(reason);
    },
    abortFromTransport(why) {
      if (aborted) return;
      control.abort(why);
      listener?.(why);
    },
  };
  return control;
}

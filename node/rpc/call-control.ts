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
  /** `listener` hears when the call ends, however it ends (at once if it has); the function returned stops that. */
  whenAborted(listener: (reason: unknown) => void): () => void;
}

export interface TransportCallControl extends CallControl {
  /** The transport ends the call: the signal aborts and the listener is told. */
  abortFromTransport(reason: unknown): void;
}

export const callControlKey = createContextKey<CallControl | undefined>(undefined, { description: "svc call control" });

export function createCallControl(): TransportCallControl {
  return new Control();
}

// A class rather than a closure: one small object a call, its methods shared.
class Control implements TransportCallControl {
  aborted = false;
  private controller: AbortController | undefined = undefined;
  private reason: unknown = undefined;
  private listener: ((reason: unknown) => void) | undefined = undefined;
  private watchers: ((reason: unknown) => void)[] | undefined = undefined;

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  abort(why: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = why;
    this.controller?.abort(why);
    for (const watcher of this.watchers ?? []) watcher(why);
  }

  whenAborted(listener: (reason: unknown) => void): () => void {
    if (this.aborted) {
      listener(this.reason);
      return noStop;
    }
    (this.watchers ??= []).push(listener);
    return () => {
      const at = this.watchers!.indexOf(listener);
      if (at >= 0) this.watchers!.splice(at, 1);
    };
  }

  onTransportAbort(listener: (reason: unknown) => void): void {
    this.listener = listener;
    if (this.aborted) listener(this.reason);
  }

  abortFromTransport(why: unknown): void {
    if (this.aborted) return;
    this.abort(why);
    this.listener?.(why);
  }
}

const noStop = () => {};

// A remote part reached over WebRTC through svc-cloud, as a RemoteSession: `connect` dials it with
// the dialer svc-server has while it follows svc-cloud (naming the remote's host), calls go as
// bytes over the connection's data channel, and the connection going away is told to `onGone`
// like an HTTP/2 connection's. Unlike HTTP/2 it is not dialled again by a call: the part's next
// connect does that (and tries the direct way first again, remote-route.ts).
import { ConnectError } from "@connectrpc/connect";
import { Code } from "../../../core/index.js";
import type { RawUnaryCall } from "../remote/index.js";
import type { RemoteSession } from "./remote-session.js";

/** An open WebRTC connection to a remote part, for unary calls as bytes. */
export interface WebRtcLink {
  call(call: RawUnaryCall): Promise<Uint8Array>;
  close(): void;
}

export interface CloudDialRequest {
  /** The remote's host, as svc-cloud knows the part (its fqdn), without a port. */
  readonly host: string;
  /** Who is called, for messages: "remote pi". */
  readonly peer: string;
  /** Gives the dial up. */
  readonly signal: AbortSignal;
  /** The connection went away after it was made; told once. */
  onGone(why: string): void;
}

/** Dials another part over WebRTC, signaling through svc-cloud with this part's own credentials. */
export type CloudDialer = (request: CloudDialRequest) => Promise<WebRtcLink>;

export interface WebRtcSessionOptions {
  /** The dialer while this machine follows svc-cloud; undefined otherwise. */
  readonly throughCloud: () => CloudDialer | undefined;
  readonly host: string;
  readonly peer: string;
  readonly onGone: (why: string | undefined) => void;
}

export function createWebRtcSession(options: WebRtcSessionOptions): RemoteSession {
  const { peer } = options;
  let link: WebRtcLink | undefined;
  let dialing: AbortController | undefined;
  let lastFailure: string | undefined;
  let closed = false;

  async function dial(dialer: CloudDialer, signal: AbortSignal | undefined): Promise<void> {
    const attempt = new AbortController();
    dialing = attempt;
    const stop = () => attempt.abort(signal?.reason);
    signal?.addEventListener("abort", stop, { once: true });
    // What this dial made, and whether it went before it was taken.
    const made: { link?: WebRtcLink; gone?: string } = {};
    const onGone = (why: string) => {
      if (made.link === undefined || link !== made.link) {
        made.gone ??= why;
        return;
      }
      link = undefined;
      lastFailure = why;
      options.onGone(why);
    };
    try {
      made.link = await dialer({ host: options.host, peer, signal: attempt.signal, onGone });
      if (attempt.signal.aborted || closed || made.gone !== undefined) {
        made.link.close();
        throw new ConnectError(made.gone ?? "the dial was given up", made.gone === undefined ? Code.Canceled : Code.Unavailable);
      }
      link = made.link;
      lastFailure = undefined;
    } catch (thrown) {
      lastFailure = ConnectError.from(thrown).rawMessage;
      throw thrown;
    } finally {
      signal?.removeEventListener("abort", stop);
      if (dialing === attempt) dialing = undefined;
    }
  }

  function call(made: RawUnaryCall): Promise<Uint8Array> {
    if (link === undefined) return Promise.reject(new ConnectError(`${peer} is not connected over WebRTC`, Code.Unavailable));
    return link.call(made);
  }

  function reset(): void {
    dialing?.abort();
    const held = link;
    link = undefined;
    held?.close();
  }

  return {
    async connect(signal) {
      if (closed) throw new ConnectError(`${peer} is no longer configured`, Code.Unavailable);
      if (link) return;
      const dialer = options.throughCloud();
      if (dialer === undefined) throw new ConnectError("this machine does not follow svc-cloud", Code.Unavailable);
      await dial(dialer, signal);
    },
    call,
    pass: call,
    failure: () => lastFailure,
    reset,
    close() {
      closed = true;
      reset();
    },
  };
}

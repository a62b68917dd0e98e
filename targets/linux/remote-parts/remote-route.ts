// Which way a remote part is reached. Directly over HTTP/2 first, as its address says; when that
// cannot reach it at all (refused, no such host, unreachable, or not connected within the call
// timeout: not a remote that answers and refuses) and this machine follows svc-cloud, over WebRTC
// through svc-cloud, naming the address's host, as a person's client reaches a machine behind
// NAT. Each connect starts with the direct way again, so a remote back on the local network is
// reached directly at the part's next reconnect. Calls go the way the connection was made.
import { ConnectError } from "@connectrpc/connect";
import { Code, type Clock, type RemoteConfig } from "../../../core/index.js";
import type { RawUnaryCall } from "../remote/index.js";
import { couldNotConnect, createRemoteSession, type RemoteSession } from "./remote-session.js";
import { createWebRtcSession, type CloudDialer } from "./webrtc-session.js";

export type RemoteWay = "direct" | "webrtc";

export interface RemoteRouteOptions {
  readonly config: RemoteConfig;
  /** Who is called, for messages: "remote pi". */
  readonly peer: string;
  readonly clock: Clock;
  /** How long the direct way may take to connect. */
  readonly connectTimeoutMs: number;
  /** The dialer through svc-cloud while this machine follows it; undefined otherwise. */
  readonly throughCloud: () => CloudDialer | undefined;
  /** Told once for each connection that goes away after it was made, with why when that is known. */
  readonly onGone: (why: string | undefined) => void;
}

export interface RemoteRoute extends RemoteSession {
  /** The way the connection in use was made; undefined until it is. */
  way(): RemoteWay | undefined;
  /** The calls on the WebRTC connection, while that is the way. */
  readonly webRtc: (call: RawUnaryCall) => Promise<Uint8Array>;
}

export function createRemoteRoute(options: RemoteRouteOptions): RemoteRoute {
  const { peer, clock } = options;
  const direct = createRemoteSession({ url: options.config.url, peer, onGone: options.onGone });
  const webRtc = createWebRtcSession({ throughCloud: options.throughCloud, host: new URL(options.config.url).hostname, peer, onGone: options.onGone });
  let way: RemoteWay | undefined;
  /** Why the last connect failed, both ways; undefined once connected. */
  let failure: string | undefined;
  let connecting: AbortController | undefined;

  async function directly(signal: AbortSignal): Promise<void> {
    const ms = options.connectTimeoutMs;
    const timer = new AbortController();
    const handle = clock.setTimeout(() => timer.abort(new ConnectError(`${peer} did not connect within ${ms} ms`, Code.DeadlineExceeded)), ms);
    try {
      await direct.connect(AbortSignal.any([signal, timer.signal]));
    } finally {
      clock.clearTimeout(handle);
    }
  }

  async function connect(): Promise<void> {
    connecting?.abort();
    const attempt = (connecting = new AbortController());
    way = undefined;
    try {
      await directly(attempt.signal);
      way = "direct";
      failure = undefined;
      return;
    } catch (thrown) {
      const why = wordsOf(thrown, direct);
      if (attempt.signal.aborted || !couldNotConnect(thrown) || options.throughCloud() === undefined) throw unreachable((failure = why), thrown);
      direct.reset();
      try {
        await webRtc.connect(attempt.signal);
      } catch (viaCloud) {
        throw unreachable((failure = `${why}; over WebRTC through svc-cloud: ${wordsOf(viaCloud, webRtc)}`), viaCloud);
      }
    } finally {
      if (connecting === attempt) connecting = undefined;
    }
    way = "webrtc";
    failure = undefined;
  }

  const current = () => (way === "webrtc" ? webRtc : direct);
  return {
    connect,
    call: (call) => current().call(call),
    pass: (call) => current().pass(call),
    webRtc: (call) => webRtc.call(call),
    way: () => way,
    failure: () => failure ?? current().failure(),
    reset() {
      connecting?.abort();
      way = undefined;
      direct.reset();
      webRtc.reset();
    },
    close() {
      connecting?.abort();
      direct.close();
      webRtc.close();
    },
  };
}

/** A failure to connect in words: the connection's own when it has them. */
function wordsOf(thrown: unknown, session: RemoteSession): string {
  const error = ConnectError.from(thrown);
  return (error.code === Code.Unavailable ? session.failure() : undefined) ?? error.rawMessage;
}

/** However it failed, the part cannot be reached: UNAVAILABLE, saying why. */
function unreachable(words: string, cause: unknown): ConnectError {
  return new ConnectError(words, Code.Unavailable, undefined, undefined, cause);
}

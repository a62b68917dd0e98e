// Time bounds for an HTTP/2 connection, which Node leaves open forever by default: the client's
// SETTINGS must arrive soon after it connects (a client that sends the preface and then nothing
// is dropped), and a connection with no call running for a while is closed with GOAWAY, which
// every gRPC client takes as "reconnect when next needed". A call running without a frame for
// that long (a long motion) keeps its connection.
import type { Http2Session } from "node:http2";

export interface SessionTimeouts {
  readonly settingsTimeoutMs: number;
  readonly sessionIdleTimeoutMs: number;
}

export function watchSession(session: Http2Session, timeouts: SessionTimeouts): void {
  let active = 0;
  const noSettings = setTimeout(() => session.destroy(), timeouts.settingsTimeoutMs);
  const settled = () => clearTimeout(noSettings);
  session.once("remoteSettings", settled);
  session.once("close", settled);
  session.on("stream", (stream) => {
    settled();
    active++;
    stream.once("close", () => active--);
  });
  // Node's session timer counts from the last frame either way; only an idle session is closed.
  session.setTimeout(timeouts.sessionIdleTimeoutMs, () => {
    if (active === 0) session.close();
  });
}

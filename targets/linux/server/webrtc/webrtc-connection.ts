// One open WebRTC connection: its "data" channel served by a channel server, what the connection
// authenticated as, and flow control (a writer waits while the channel holds more than
// `highWaterBytes` unsent).
import type { DataChannel } from "node-datachannel";
import type { ConnectionGrant, PeerSource, PortCalls } from "../transport/index.js";
import { createChannelServer, type ChannelServer } from "./channel-server.js";

const highWaterBytes = 1024 * 1024;

export interface WebRtcConnectionOptions {
  readonly channel: DataChannel;
  readonly calls: PortCalls;
  readonly address: string;
  /** What the signaling call authenticated as, if it did. */
  readonly grant: ConnectionGrant | undefined;
  readonly maxMessageBytes: number;
  /** Checks `<key-id>:<key>` sent over the channel; a grant, or undefined when it is no valid key. */
  authenticateApiToken(token: string): Promise<ConnectionGrant | undefined>;
  onDropped(why: string): void;
}

export interface WebRtcConnection {
  readonly address: string;
  close(): void;
}

export function serveWebRtcConnection(options: WebRtcConnectionOptions): WebRtcConnection {
  const { channel } = options;
  let peer: PeerSource = { remoteAddress: options.address, encrypted: true, grant: options.grant };
  let waiting: (() => void)[] = [];
  channel.setBufferedAmountLowThreshold(highWaterBytes / 2);
  channel.onBufferedAmountLow(() => {
    for (const resume of waiting.splice(0)) resume();
  });

  const server: ChannelServer = createChannelServer({
    calls: options.calls,
    peer: () => peer,
    maxMessageBytes: options.maxMessageBytes,
    // libdatachannel says false when it had to buffer the frame; only then is the buffer measured.
    send(frame) {
      try {
        return channel.sendMessageBinary(frame) || channel.bufferedAmount() < highWaterBytes;
      } catch {
        // Closed: the connection's calls hear it from the channel's close.
        return true;
      }
    },
    drained() {
      if (!channel.isOpen() || channel.bufferedAmount() < highWaterBytes) return Promise.resolve();
      return new Promise((resolve) => waiting.push(resolve));
    },
    onDropped: options.onDropped,
    onApiToken(token) {
      void options.authenticateApiToken(token).then((grant) => {
        if (grant) peer = { ...peer, grant };
        else options.onDropped("an api_token that is no valid API key");
      });
    },
  });
  channel.onMessage((message) => {
    if (typeof message === "string") return options.onDropped("a text message on the data channel");
    server.receive(message instanceof ArrayBuffer ? new Uint8Array(message) : message);
  });

  return {
    address: options.address,
    close() {
      server.close();
      const resumed = waiting;
      waiting = [];
      for (const resume of resumed) resume();
    },
  };
}

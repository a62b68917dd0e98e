// libdatachannel's binding (node-datachannel), loaded on the first offer rather than at start: a
// machine where it cannot load (a platform without its prebuilt binary) still runs and serves
// directly, and a caller asking for WebRTC is told why it cannot have it.
import { ConnectError } from "@connectrpc/connect";
import { Code } from "../../../../core/index.js";
import type { DataChannelLibrary } from "./answering-peer.js";

let loading: Promise<DataChannelLibrary> | undefined;

export function loadDataChannelLibrary(): Promise<DataChannelLibrary> {
  loading ??= import("node-datachannel").catch((error: unknown) => {
    throw new ConnectError(`WebRTC is not available on this machine: node-datachannel cannot load (${String(error).slice(0, 300)})`, Code.Unavailable);
  });
  return loading;
}

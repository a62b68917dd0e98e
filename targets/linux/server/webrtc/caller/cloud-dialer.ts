// The dialer remote parts use to reach another part over WebRTC through svc-cloud: signaling with
// the machine's own connection to svc-cloud (signed in with its part key, as its Answer stream
// is), libdatachannel loaded on the first dial, waits on the machine's clock.
import type { Clock } from "../../../../../core/index.js";
import type { CloudDialer } from "../../../remote-parts/index.js";
import { loadDataChannelLibrary } from "../webrtc-library.js";
import type { Signaling } from "./call-signaling.js";
import { dialWebRtc } from "./webrtc-caller.js";

export function cloudDialer(signaling: Signaling, clock: Clock): CloudDialer {
  return (request) => dialWebRtc({ ...request, signaling, clock, library: loadDataChannelLibrary });
}

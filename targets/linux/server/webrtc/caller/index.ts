// Public face of targets/linux/server/webrtc/caller: svc-server calling another machine over
// WebRTC, signaled through a SignalingService (svc-cloud's), and unary calls as bytes on the
// connection's data channel.
export { dialWebRtc, WEBRTC_CONNECT_DEADLINE_MS, type WebRtcDialOptions, type WebRtcLink } from "./webrtc-caller.js";
export { createChannelClient, type ChannelClient, type ChannelClientOptions } from "./channel-client.js";
export type { Signaling } from "./call-signaling.js";
export { cloudDialer } from "./cloud-dialer.js";

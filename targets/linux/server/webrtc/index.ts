// Public face of targets/linux/server/webrtc: the machine answering WebRTC connections, with the
// signaling service on its own port, and serving its API over their data channels; and calling
// other machines over WebRTC (caller/), as a remote part is reached through svc-cloud.
export { createInternalSignaling, type InternalSignaling, type InternalSignalingOptions } from "./internal-signaling.js";
export { decodeOffer, encodeDescription } from "./signaling-service.js";
export type { CallExchange, WebRtcAnswerer } from "./webrtc-answerer.js";
export { cloudDialer } from "./caller/index.js";

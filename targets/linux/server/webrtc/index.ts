// Public face of targets/linux/server/webrtc: the machine answering WebRTC connections, with the
// signaling service on its own port, and serving its API over their data channels.
export { createInternalSignaling, type InternalSignaling, type InternalSignalingOptions } from "./internal-signaling.js";
export { WEBRTC_MAX_MESSAGE_BYTES, WEBRTC_MAX_STREAMS } from "./channel-server.js";
export { decodeOffer, encodeDescription, MAX_OFFER_CHARS } from "./signaling-service.js";
export type { CallExchange, WebRtcAnswerer } from "./webrtc-answerer.js";

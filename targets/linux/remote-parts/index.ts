// Public face of targets/linux/remote-parts: other parts of the machine (svc-server or viam-server,
// reached over the network) joined to this one, following the configuration's `remotes`. Their
// resources are listed, callable through this part and usable as dependencies; a remote that
// drops keeps them listed as unavailable until it answers again.
export { createRemoteParts, followConfigRemotes, REMOTE_STATUS_API } from "./remote-parts.js";
export type { RemoteParts, RemotePartsOptions } from "./remote-parts.js";
export { REMOTE_CALL_TIMEOUT_MS } from "./remote-part.js";
export type { CloudDialer, CloudDialRequest, WebRtcLink } from "./webrtc-session.js";
export { remoteServiceCalls } from "./remote-service-calls.js";
export { MAX_REMOTE_SERVICES, readServices } from "./remote-services.js";
export { REMOTE_RESOURCE_MODEL } from "./remote-stand-ins.js";
export { MAX_LISTED_RESOURCES, MAX_LISTING_BYTES, MAX_NAME_CHARS, MAX_REMOTE_DEPTH, readListing } from "./remote-listing.js";
export type { Listing, ListedResource } from "./remote-listing.js";
export { createReconnectBackoff, RECONNECT_MAX_MS } from "./reconnect-backoff.js";
export type { ReconnectBackoff } from "./reconnect-backoff.js";
export { findCollisions } from "./remote-collisions.js";

// Public face of the NetworkManager backend: NetworkBackend over NetworkManager's D-Bus API, and
// the pure pieces others may want (profile naming and settings building).
export { createNetworkManagerBackend } from "./network-manager-backend.js";
export type { NetworkManagerBackendOptions } from "./network-manager-backend.js";
export { NetworkManagerError } from "./nm-bus.js";
export { HOTSPOT_PROFILE_ID, PROFILE_ID_PREFIX, ownedLabel, profileId, profileUuid } from "./profile-identity.js";
export { buildHotspotSettings, buildProfileSettings, changedFields, maskedSettings } from "./profile-settings.js";
export type { ProfileSettings } from "./profile-settings.js";

// Public face of the provisioning controller: the network controller that runs the provisioning
// state machine against a NetworkBackend, the portal seam it drives, and the reboot seam.
export { createNetworkController } from "./network-controller.js";
export type { NetworkController, NetworkControllerOptions } from "./network-controller.js";
export type { NetworkSubmission, PortalSeam, PortalSession, SubmissionResult } from "./portal-seam.js";
export { PROVISIONED_LABEL, PROVISIONED_PRIORITY, provisionedNetwork, submissionProblem } from "./provisioned-network.js";
export { syncProfiles, type ProfileSyncResult } from "./profile-sync.js";
export { readNetworkStatus, type NetworkStatus } from "./network-status.js";
export { createSystemReboot, type SystemRebootOptions } from "./reboot.js";

// The captive portal and provisioning API served while the provisioning hotspot is up.
export {
  CAPTIVE_PROBE_PATHS,
  createProvisioningPortal,
  type ProvisioningPortal,
  type ProvisioningPortalOptions,
} from "./provisioning-portal.js";
export type { ProvisioningState, SubmitResult } from "./provisioning-actions.js";
export type { MachineCredentials, NetworkChoice } from "./provisioning-input.js";
export { answerDnsPacket, createDnsResponder, type DnsResponder, type DnsResponderOptions } from "./dns-responder.js";
export { createCaptivePortalSeam, type CaptivePortalSeamOptions } from "./captive-portal-seam.js";

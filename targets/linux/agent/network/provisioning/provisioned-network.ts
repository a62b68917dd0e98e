// The network a person chose on the portal, saved as an agent-owned profile. It has its own label,
// "provisioned", and the highest priority there is, so the network picked on site wins over the
// configured ones; a label "provisioned" in `additional_networks` takes its place.
import type { AdditionalNetwork } from "../../../../../core/index.js";
import type { NetworkSubmission } from "./portal-seam.js";

export const PROVISIONED_LABEL = "provisioned";
export const PROVISIONED_PRIORITY = 999;

/** Why a submission cannot be a wifi network, or undefined when it can. */
export function submissionProblem(choice: NetworkSubmission): string | undefined {
  if (typeof choice.ssid !== "string" || choice.ssid.length === 0) return "the network name (SSID) is empty";
  if (new TextEncoder().encode(choice.ssid).length > 32) return "the network name (SSID) is longer than 32 bytes";
  if (typeof choice.psk !== "string") return "the password must be text";
  const hexKey = /^[0-9a-fA-F]{64}$/.test(choice.psk);
  if (choice.psk.length > 0 && !hexKey && (choice.psk.length < 8 || choice.psk.length > 63)) {
    return "a WPA password has 8 to 63 characters";
  }
  return undefined;
}

export function provisionedNetwork(choice: NetworkSubmission, hotspotInterface: string): AdditionalNetwork {
  return {
    type: "wifi",
    interface: hotspotInterface,
    ssid: choice.ssid,
    psk: choice.psk,
    priority: PROVISIONED_PRIORITY,
    ipv4_address: "auto",
    ipv4_gateway: "",
    ipv4_dns: [],
    ipv4_route_metric: 600,
  };
}

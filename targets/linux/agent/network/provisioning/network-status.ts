// What the network looks like, as the provisioning machine needs it: whether a wired or wifi
// device is connected (the hotspot's own connection does not count), the agent-owned network in
// use, and the connectivity NetworkManager reports.
import type { NetworkConnectivity } from "../../../../../core/index.js";
import type { Connectivity, NetworkBackend } from "../network-backend.js";

export interface NetworkStatus {
  connected: boolean;
  connectivity: NetworkConnectivity;
  label: string | null;
  /** Whether `connectivity` comes from a check made just now (else it is the one passed in). */
  checked: boolean;
}

export interface ReadStatusOptions {
  /** The hotspot's interface while it is starting or up; "" while starting on any wifi device. */
  hotspotInterface: string | undefined;
  /** The last connectivity NetworkManager reported. */
  connectivity: Connectivity;
  /** Ask NetworkManager for a fresh check when connected (only when the internet is required). */
  checkConnectivity: boolean;
}

export async function readNetworkStatus(backend: NetworkBackend, options: ReadStatusOptions): Promise<NetworkStatus> {
  const hotspot = options.hotspotInterface;
  const devices = await backend.devices();
  const connected = devices.some((device) => {
    if (device.state !== "connected" || device.kind === "other") return false;
    if (hotspot !== undefined && device.kind === "wifi" && (hotspot === "" || device.interface === hotspot)) return false;
    return true;
  });
  let connectivity = options.connectivity;
  const checked = connected && options.checkConnectivity && connectivity !== "full";
  if (checked) connectivity = await backend.checkConnectivity().catch((): Connectivity => connectivity);
  const label = connected ? ((await backend.activeLabel()) ?? null) : null;
  return { connected, connectivity, label, checked };
}

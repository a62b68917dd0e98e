// The provisioning machine's settings from the agent configuration: which networks are tried and
// in what order, the hotspot's name and password, and every delay in milliseconds.
import type { AgentConfig } from "../config/index.js";
import type { ProvisioningNetwork, ProvisioningSettings } from "./provisioning-types.js";

export interface ProvisioningSettingsOptions {
  hostname: string;
  /** Milliseconds for a duration in minutes; 60,000 a minute by default (the agent's clock does any scaling). */
  minutes?: (value: number) => number;
  /** Networks the agent owns beyond `additional_networks` (the one saved by provisioning). */
  extraNetworks?: ProvisioningNetwork[];
}

/** Highest priority first; equal priorities by label, so the order never depends on key order. */
export function orderNetworks(networks: ProvisioningNetwork[]): ProvisioningNetwork[] {
  return networks.slice().sort((a, b) => b.priority - a.priority || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
}

export function provisioningSettings(agent: AgentConfig, options: ProvisioningSettingsOptions): ProvisioningSettings {
  const net = agent.network_configuration;
  const minutes = options.minutes ?? ((value: number) => value * 60_000);
  const extra = options.extraNetworks ?? [];
  const configured = Object.keys(agent.additional_networks)
    .filter((label) => !extra.some((n) => n.label === label))
    .map((label) => ({ label, priority: agent.additional_networks[label].priority }));
  const ordered = orderNetworks(configured.concat(extra));
  return {
    // Without the internet requirement only the first choice is tried; NetworkManager's own
    // autoconnect (by the same priorities) covers the rest.
    networks: net.turn_on_hotspot_if_wifi_has_no_internet ? ordered : ordered.slice(0, 1),
    requireInternet: net.turn_on_hotspot_if_wifi_has_no_internet,
    offlineBeforeHotspotMs: minutes(net.offline_before_starting_hotspot_minutes),
    retryConnectionMs: minutes(net.retry_connection_timeout_minutes),
    userIdleMs: minutes(net.user_idle_minutes),
    rebootAfterOfflineMs: net.device_reboot_after_offline_minutes > 0 ? minutes(net.device_reboot_after_offline_minutes) : 0,
    hotspot: {
      ssid: `${net.hotspot_prefix}-${options.hostname}`,
      password: net.hotspot_password,
      interface: net.hotspot_interface,
    },
  };
}

// The agent's settings beyond what the schema checks: each additional network must be usable
// as written (a wifi network needs its SSID, a passkey WPA can take), a route metric of 0 means
// the usual one for the network's type, and forward_system_logs is parsed.
import type { AdditionalNetwork, AgentConfig } from "./types.js";
import type { ValidatedAgent } from "./validated.js";
import type { IssueList } from "./issue-list.js";
import type { Segment } from "./data-path.js";
import { parseForwardSystemLogs } from "./forward-system-logs.js";

// What NetworkManager itself uses when no metric is set.
const defaultRouteMetric = { wired: 100, wifi: 600 } as const;
// WPA: a passphrase of 8 to 63 printable ASCII characters, or the key as 64 hex digits.
const wpaPassphrase = /^([ -~]{8,63}|[0-9A-Fa-f]{64})$/;

export function buildAgent(agent: ValidatedAgent, issues: IssueList): AgentConfig {
  const networks = agent.additional_networks;
  // Changed in place: a label such as "__proto__" must stay an ordinary key.
  for (const label of Object.keys(networks)) {
    if (!usableNetwork(networks[label]!, ["agent", "additional_networks", label], issues)) delete networks[label];
  }
  const system = agent.system_configuration;
  return {
    version_control: agent.version_control,
    advanced_settings: agent.advanced_settings,
    network_configuration: agent.network_configuration,
    additional_networks: networks,
    system_configuration: {
      forward_system_logs: parseForwardSystemLogs(
        system.forward_system_logs,
        ["agent", "system_configuration", "forward_system_logs"],
        issues,
      ),
      logging_journald_runtime_max_use_megabytes: system.logging_journald_runtime_max_use_megabytes,
      logging_journald_system_max_use_megabytes: system.logging_journald_system_max_use_megabytes,
      os_auto_upgrade_type: system.os_auto_upgrade_type,
    },
  };
}

function usableNetwork(network: AdditionalNetwork, path: Segment[], issues: IssueList): boolean {
  if (network.type === "wifi") {
    if (network.ssid === "") {
      issues.error([...path, "ssid"], "is required for a wifi network");
      return false;
    }
    if (network.psk !== "" && !wpaPassphrase.test(network.psk)) {
      issues.error(
        [...path, "psk"],
        `must be 8 to 63 printable ASCII characters or 64 hex digits (found a string of ${network.psk.length} characters)`,
      );
      return false;
    }
  } else {
    for (const key of ["ssid", "psk"] as const) {
      if (network[key] === "") continue;
      issues.warning([...path, key], "is only for wifi networks (ignored)");
      network[key] = "";
    }
  }
  if (network.ipv4_route_metric === 0) network.ipv4_route_metric = defaultRouteMetric[network.type];
  return true;
}

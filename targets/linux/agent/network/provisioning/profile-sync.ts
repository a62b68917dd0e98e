// Makes NetworkManager's agent-owned profiles match the configuration: every label of
// `additional_networks` applied (with `wifi_power_save`), every owned label that is gone removed.
// The provisioned network is kept: it comes from the portal, not from the configuration.
import type { AgentConfig, Logger } from "../../../../../core/index.js";
import type { ManagedNetwork, NetworkBackend } from "../network-backend.js";
import { PROVISIONED_LABEL } from "./provisioned-network.js";

export interface ProfileSyncResult {
  applied: string[];
  removed: string[];
  failed: string[];
}

export async function syncProfiles(
  backend: NetworkBackend,
  agent: AgentConfig,
  provisioned: ManagedNetwork | undefined,
  logger: Logger,
): Promise<ProfileSyncResult> {
  const options = { wifiPowerSave: agent.network_configuration.wifi_power_save };
  const wanted: ManagedNetwork[] = Object.keys(agent.additional_networks).map((label) => ({ label, network: agent.additional_networks[label]! }));
  if (provisioned && !(provisioned.label in agent.additional_networks)) wanted.push(provisioned);
  const result: ProfileSyncResult = { applied: [], removed: [], failed: [] };
  for (const managed of wanted) {
    try {
      await backend.applyProfile(managed, options);
      result.applied.push(managed.label);
    } catch (err) {
      // One bad network must not keep the others from being applied.
      logger.error("network profile could not be applied", { label: managed.label, error: String(err) });
      result.failed.push(managed.label);
    }
  }
  for (const label of await backend.managedLabels()) {
    if (label === PROVISIONED_LABEL || label in agent.additional_networks) continue;
    try {
      await backend.removeProfile(label);
      result.removed.push(label);
      logger.info("network profile removed", { label });
    } catch (err) {
      logger.error("network profile could not be removed", { label, error: String(err) });
      result.failed.push(label);
    }
  }
  return result;
}

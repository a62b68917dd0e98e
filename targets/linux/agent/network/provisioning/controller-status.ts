// What the network looks like, fed to the provisioning state machine: read on each backend event
// (one read at a time; events during a read ask for one more), with the connectivity the last
// activation or event reported.
import type { NetworkEvent } from "../network-backend.js";
import type { ControllerState } from "./controller-state.js";
import { readNetworkStatus } from "./network-status.js";

export async function refreshStatus(state: ControllerState): Promise<void> {
  if (state.refreshing) {
    state.refreshAgain = true;
    return;
  }
  state.refreshing = true;
  try {
    do {
      state.refreshAgain = false;
      const status = await readNetworkStatus(state.options.backend, {
        hotspotInterface: state.hotspotInterface,
        connectivity: state.connectivity,
        checkConnectivity: state.agent.network_configuration.turn_on_hotspot_if_wifi_has_no_internet,
      });
      if (status.checked) state.connectivity = status.connectivity;
      state.machine?.send({ kind: "status", connected: status.connected, connectivity: status.connectivity, label: status.label });
    } while (state.refreshAgain && !state.closed);
  } catch (err) {
    state.options.logger.warn("network status could not be read", { error: String(err) });
  } finally {
    state.refreshing = false;
  }
}

export function onNetworkEvent(state: ControllerState, event: NetworkEvent): void {
  if (event.kind === "access-points") return;
  if (event.kind === "connectivity") state.connectivity = event.connectivity;
  void refreshStatus(state);
}

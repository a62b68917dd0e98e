// Carrying out what the provisioning state machine asks for, strictly one action after the other:
// applying the configured profiles, trying a network (and answering a portal submission waiting
// for it), the hotspot with its portal, a reboot.
import type { ProvisioningAction } from "../../../../../core/index.js";
import type { Connectivity } from "../network-backend.js";
import type { ControllerState } from "./controller-state.js";
import { syncProfiles } from "./profile-sync.js";

export function enqueueActions(state: ControllerState, batch: ProvisioningAction[]): void {
  const { logger } = state.options;
  for (const action of batch) {
    state.actions = state.actions.then(() => perform(state, action)).catch((err) => logger.error("network action failed", { action: action.kind, error: String(err) }));
  }
}

async function perform(state: ControllerState, action: ProvisioningAction): Promise<void> {
  const { backend, logger } = state.options;
  if (state.closed || state.machine === undefined) return;
  switch (action.kind) {
    case "apply-profiles":
      await syncProfiles(backend, state.agent, state.provisioned.managed, logger);
      return;
    case "activate":
      return activate(state, action.label, action.attempt);
    case "start-hotspot":
      return startHotspot(state, action);
    case "stop-hotspot":
      return stopHotspot(state);
    case "reboot":
      try {
        await state.options.reboot();
      } catch (err) {
        logger.error("reboot failed", { error: String(err) });
      }
      return;
  }
}

async function activate(state: ControllerState, label: string, attempt: number): Promise<void> {
  const { backend, logger } = state.options;
  logger.info("trying network", { label });
  const result = await backend.activate(label).catch((err): { ok: false; reason: string } => ({ ok: false, reason: String(err) }));
  let reached = state.connectivity;
  if (result.ok && state.agent.network_configuration.turn_on_hotspot_if_wifi_has_no_internet) {
    reached = await backend.checkConnectivity().catch((): Connectivity => "unknown");
    state.connectivity = reached;
  }
  state.machine?.send({ kind: "activation", label, attempt, ok: result.ok, connectivity: reached });
  const pending = state.pending;
  if (pending?.attempt === attempt) {
    const online = state.machine?.state().phase.name === "online";
    const error = result.ok ? `connected, but the internet is not reachable (connectivity: ${reached})` : result.reason;
    state.lastSubmissionError = online ? undefined : error;
    pending.resolve(online ? { ok: true } : { ok: false, error });
    state.pending = undefined;
  }
}

async function startHotspot(state: ControllerState, request: Extract<ProvisioningAction, { kind: "start-hotspot" }>): Promise<void> {
  const { backend, logger, portal } = state.options;
  state.hotspotInterface = request.interface;
  logger.info("starting the provisioning hotspot", { ssid: request.ssid, interface: request.interface || "first wifi device" });
  let address: string;
  try {
    const hotspot = await backend.startHotspot({ interface: request.interface, ssid: request.ssid, password: request.password });
    state.hotspotInterface = hotspot.interface;
    state.hotspotUp = true;
    address = hotspot.address;
  } catch (err) {
    logger.error("the provisioning hotspot could not start", { error: String(err) });
    state.hotspotInterface = undefined;
    state.machine?.send({ kind: "hotspot-failed" });
    return;
  }
  if (!portal) return;
  await state.portalStopping;
  const net = state.agent.network_configuration;
  try {
    await portal.start({
      address,
      interface: state.hotspotInterface,
      ssid: request.ssid,
      manufacturer: net.manufacturer,
      model: net.model,
      fragmentId: net.fragment_id,
      redirectAll: !net.disable_captive_portal_redirect,
      lastError: state.lastSubmissionError,
      scan: () => backend.accessPoints(),
      submit: (choice) => state.portalCalls.submit(choice),
      onUserActivity: () => state.portalCalls.userActivity(),
    });
  } catch (err) {
    logger.error("the provisioning portal could not start", { error: String(err) });
  }
}

export async function stopHotspot(state: ControllerState): Promise<void> {
  const { backend, logger, portal } = state.options;
  // Not awaited: the stop may come from a submission made through the portal itself.
  if (portal) state.portalStopping = portal.stop().catch((err) => logger.warn("the provisioning portal did not stop cleanly", { error: String(err) }));
  try {
    await backend.stopHotspot();
    logger.info("provisioning hotspot stopped");
  } finally {
    state.hotspotInterface = undefined;
    state.hotspotUp = false;
  }
}

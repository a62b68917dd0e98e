// The agent's network controller: applies the configured networks as NetworkManager profiles,
// feeds the backend's events and the passing of time to the provisioning state machine, and
// carries out what it asks for (activations, the hotspot with its portal, a reboot), one action
// at a time. `disable_network_configuration` turns all of it off.
import {
  createProvisioningMachine,
  provisioningSettings,
  type AgentConfig,
  type Clock,
  type Logger,
  type ProvisioningAction,
  type ProvisioningMachine,
  type ProvisioningPhase,
  type ProvisioningSettings,
} from "../../../../../core/index.js";
import type { TimeScale } from "../../time-scale.js";
import type { Connectivity, ManagedNetwork, NetworkBackend, NetworkEvent } from "../network-backend.js";
import type { NetworkSubmission, PortalSeam, SubmissionResult } from "./portal-seam.js";
import { syncProfiles } from "./profile-sync.js";
import { PROVISIONED_LABEL, PROVISIONED_PRIORITY, provisionedNetwork, submissionProblem } from "./provisioned-network.js";
import { readNetworkStatus } from "./network-status.js";

export interface NetworkControllerOptions {
  backend: NetworkBackend;
  /** The agent configuration now; read at start and at each `reconfigure`. */
  settings: () => AgentConfig;
  hostname: string;
  clock: Clock;
  timeScale: TimeScale;
  reboot: () => Promise<void>;
  logger: Logger;
  portal?: PortalSeam;
}

export interface NetworkController {
  start(): Promise<void>;
  /** The configuration changed: profiles are applied again and the new delays take effect. */
  reconfigure(): Promise<void>;
  /** A network chosen on the portal: saved as "provisioned" and tried at once. */
  submit(choice: NetworkSubmission): Promise<SubmissionResult>;
  userActivity(): void;
  /** "disabled" under `disable_network_configuration`, "stopped" before start and after close. */
  phase(): ProvisioningPhase | "disabled" | "stopped";
  /** Resolves once every action asked for so far has been carried out. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

interface PendingSubmission {
  attempt: number;
  resolve: (result: SubmissionResult) => void;
}

export function createNetworkController(options: NetworkControllerOptions): NetworkController {
  const { backend, clock, logger } = options;
  let agent = options.settings();
  let machine: ProvisioningMachine | undefined;
  let machineSettings: ProvisioningSettings | undefined;
  let unsubscribe: (() => void) | undefined;
  let closed = false;
  let started = false;
  /** The provisioned profile, when saved or found; its credentials only when saved by this run. */
  let provisioned: { known: boolean; managed?: ManagedNetwork } = { known: false };
  let connectivity: Connectivity = "unknown";
  /** The hotspot's interface while it is starting or up; "" while starting on the first wifi device. */
  let hotspotInterface: string | undefined;
  let hotspotUp = false;
  let portalStopping: Promise<void> = Promise.resolve();
  let lastSubmissionError: string | undefined;
  let pending: PendingSubmission | undefined;
  let actions: Promise<void> = Promise.resolve();
  let refreshing = false;
  let refreshAgain = false;

  const disabled = () => agent.advanced_settings.disable_network_configuration;

  function computeSettings(): ProvisioningSettings {
    const extraNetworks = provisioned.known ? [{ label: PROVISIONED_LABEL, priority: PROVISIONED_PRIORITY }] : [];
    return provisioningSettings(agent, { hostname: options.hostname, minutes: (m) => options.timeScale.minutes(m), extraNetworks });
  }

  // ---- carrying out the machine's actions, strictly one after the other ----

  function enqueue(batch: ProvisioningAction[]): void {
    for (const action of batch) {
      actions = actions.then(() => perform(action)).catch((err) => logger.error("network action failed", { action: action.kind, error: String(err) }));
    }
  }

  async function perform(action: ProvisioningAction): Promise<void> {
    if (closed || machine === undefined) return;
    switch (action.kind) {
      case "apply-profiles":
        await syncProfiles(backend, agent, provisioned.managed, logger);
        return;
      case "activate":
        return activate(action.label, action.attempt);
      case "start-hotspot":
        return startHotspot(action);
      case "stop-hotspot":
        return stopHotspot();
      case "reboot":
        try {
          await options.reboot();
        } catch (err) {
          logger.error("reboot failed", { error: String(err) });
        }
        return;
    }
  }

  async function activate(label: string, attempt: number): Promise<void> {
    logger.info("trying network", { label });
    const result = await backend.activate(label).catch((err): { ok: false; reason: string } => ({ ok: false, reason: String(err) }));
    let reached = connectivity;
    if (result.ok && agent.network_configuration.turn_on_hotspot_if_wifi_has_no_internet) {
      reached = await backend.checkConnectivity().catch((): Connectivity => "unknown");
      connectivity = reached;
    }
    machine?.send({ kind: "activation", label, attempt, ok: result.ok, connectivity: reached });
    if (pending?.attempt === attempt) {
      const online = machine?.state().phase.name === "online";
      const error = result.ok ? `connected, but the internet is not reachable (connectivity: ${reached})` : result.reason;
      lastSubmissionError = online ? undefined : error;
      pending.resolve(online ? { ok: true } : { ok: false, error });
      pending = undefined;
    }
  }

  async function startHotspot(request: Extract<ProvisioningAction, { kind: "start-hotspot" }>): Promise<void> {
    hotspotInterface = request.interface;
    logger.info("starting the provisioning hotspot", { ssid: request.ssid, interface: request.interface || "first wifi device" });
    let address: string;
    try {
      const hotspot = await backend.startHotspot({ interface: request.interface, ssid: request.ssid, password: request.password });
      hotspotInterface = hotspot.interface;
      hotspotUp = true;
      address = hotspot.address;
    } catch (err) {
      logger.error("the provisioning hotspot could not start", { error: String(err) });
      hotspotInterface = undefined;
      machine?.send({ kind: "hotspot-failed" });
      return;
    }
    if (!options.portal) return;
    await portalStopping;
    const net = agent.network_configuration;
    try {
      await options.portal.start({
        address,
        interface: hotspotInterface,
        ssid: request.ssid,
        manufacturer: net.manufacturer,
        model: net.model,
        fragmentId: net.fragment_id,
        redirectAll: !net.disable_captive_portal_redirect,
        lastError: lastSubmissionError,
        scan: () => backend.accessPoints(),
        submit: (choice) => controller.submit(choice),
        onUserActivity: () => controller.userActivity(),
      });
    } catch (err) {
      logger.error("the provisioning portal could not start", { error: String(err) });
    }
  }

  async function stopHotspot(): Promise<void> {
    // Not awaited: the stop may come from a submission made through the portal itself.
    if (options.portal) portalStopping = options.portal.stop().catch((err) => logger.warn("the provisioning portal did not stop cleanly", { error: String(err) }));
    try {
      await backend.stopHotspot();
      logger.info("provisioning hotspot stopped");
    } finally {
      hotspotInterface = undefined;
      hotspotUp = false;
    }
  }

  // ---- what the network looks like, fed to the machine ----

  async function refreshStatus(): Promise<void> {
    if (refreshing) {
      refreshAgain = true;
      return;
    }
    refreshing = true;
    try {
      do {
        refreshAgain = false;
        const status = await readNetworkStatus(backend, {
          hotspotInterface,
          connectivity,
          checkConnectivity: agent.network_configuration.turn_on_hotspot_if_wifi_has_no_internet,
        });
        if (status.checked) connectivity = status.connectivity;
        machine?.send({ kind: "status", connected: status.connected, connectivity: status.connectivity, label: status.label });
      } while (refreshAgain && !closed);
    } catch (err) {
      logger.warn("network status could not be read", { error: String(err) });
    } finally {
      refreshing = false;
    }
  }

  function onEvent(event: NetworkEvent): void {
    if (event.kind === "access-points") return;
    if (event.kind === "connectivity") connectivity = event.connectivity;
    void refreshStatus();
  }

  // ---- lifecycle ----

  async function begin(): Promise<void> {
    if (disabled()) {
      logger.info("network configuration is disabled: profiles and hotspot left alone");
      return;
    }
    provisioned = { ...provisioned, known: provisioned.known || (await backend.managedLabels()).indexOf(PROVISIONED_LABEL) >= 0 };
    machineSettings = computeSettings();
    machine = createProvisioningMachine({
      clock,
      settings: () => machineSettings!,
      onActions: enqueue,
      onState: (state) => logger.debug("provisioning state", { phase: state.phase.name }),
    });
    unsubscribe = backend.onEvent(onEvent);
    machine.send({ kind: "settings" });
    await refreshStatus();
  }

  async function end(): Promise<void> {
    unsubscribe?.();
    unsubscribe = undefined;
    // Actions still queued are dropped: `perform` finds no machine.
    const stopping = machine;
    machine = undefined;
    stopping?.close();
    await actions;
    pending?.resolve({ ok: false, error: "network configuration stopped" });
    pending = undefined;
    if (hotspotInterface !== undefined || hotspotUp) await stopHotspot().catch((err) => logger.warn("hotspot stop failed", { error: String(err) }));
    await portalStopping;
  }

  const controller: NetworkController = {
    async start() {
      if (started || closed) return;
      started = true;
      await begin();
    },

    async reconfigure() {
      if (!started || closed) return;
      const wasDisabled = disabled();
      agent = options.settings();
      if (wasDisabled !== disabled()) {
        if (disabled()) {
          logger.info("network configuration disabled");
          await end();
        } else await begin();
        return;
      }
      if (machine === undefined) return;
      machineSettings = computeSettings();
      machine.send({ kind: "settings" });
      await actions;
    },

    async submit(choice) {
      if (machine === undefined || closed) return { ok: false, error: "network configuration is not running" };
      const problem = submissionProblem(choice);
      if (problem) return { ok: false, error: problem };
      const managed: ManagedNetwork = { label: PROVISIONED_LABEL, network: provisionedNetwork(choice, agent.network_configuration.hotspot_interface) };
      try {
        await backend.applyProfile(managed, { wifiPowerSave: agent.network_configuration.wifi_power_save });
      } catch (err) {
        return { ok: false, error: `the network could not be saved: ${String(err)}` };
      }
      provisioned = { known: true, managed };
      machineSettings = computeSettings();
      logger.info("network saved from the portal", { label: PROVISIONED_LABEL, ssid: choice.ssid });
      pending?.resolve({ ok: false, error: "replaced by a newer submission" });
      pending = undefined;
      const before = machine.state().attempts;
      let resolve: (result: SubmissionResult) => void = () => {};
      const result = new Promise<SubmissionResult>((r) => (resolve = r));
      machine.send({ kind: "submission", label: PROVISIONED_LABEL });
      // The activation runs later, from the action queue, so the answer is awaited from here on.
      if (machine !== undefined && machine.state().attempts > before) pending = { attempt: machine.state().attempts, resolve };
      else resolve({ ok: true }); // nothing to try now (already online, or another attempt running): saved for later
      return result;
    },

    userActivity() {
      machine?.send({ kind: "user-activity" });
    },

    phase() {
      if (!started || closed) return "stopped";
      if (machine === undefined) return "disabled";
      return machine.state().phase;
    },

    async idle() {
      let seen: Promise<void> | undefined;
      while (seen !== actions) {
        seen = actions;
        await seen;
      }
    },

    async close() {
      if (closed) return;
      await end();
      closed = true;
    },
  };
  return controller;
}

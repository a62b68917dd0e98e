// The agent's network controller: applies the configured networks as NetworkManager profiles,
// feeds the backend's events and the passing of time to the provisioning state machine, and
// carries out what it asks for (activations, the hotspot with its portal, a reboot), one action
// at a time. `disable_network_configuration` turns all of it off.
//
// The controller is its state (controller-state.ts) and two phases that move it: carrying out the
// machine's actions (controller-actions.ts) and reading what the network looks like
// (controller-status.ts). This file starts and ends the machine and takes the portal's choices.
import { createProvisioningMachine, type ProvisioningPhase } from "../../../../../core/index.js";
import type { ManagedNetwork } from "../network-backend.js";
import { enqueueActions, stopHotspot } from "./controller-actions.js";
import { createControllerState, machineSettingsOf, networkConfigurationDisabled, type ControllerState, type NetworkControllerOptions } from "./controller-state.js";
import { onNetworkEvent, refreshStatus } from "./controller-status.js";
import type { NetworkSubmission, SubmissionResult } from "./portal-seam.js";
import { PROVISIONED_LABEL, provisionedNetwork, submissionProblem } from "./provisioned-network.js";

export type { NetworkControllerOptions } from "./controller-state.js";

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

export function createNetworkController(options: NetworkControllerOptions): NetworkController {
  const { logger } = options;
  const state = createControllerState(options, {
    submit: (choice) => controller.submit(choice),
    userActivity: () => controller.userActivity(),
  });
  const disabled = () => networkConfigurationDisabled(state);

  const controller: NetworkController = {
    async start() {
      if (state.started || state.closed) return;
      state.started = true;
      await begin(state);
    },

    async reconfigure() {
      if (!state.started || state.closed) return;
      const wasDisabled = disabled();
      state.agent = options.settings();
      if (wasDisabled !== disabled()) {
        if (disabled()) {
          logger.info("network configuration disabled");
          await end(state);
        } else await begin(state);
        return;
      }
      if (state.machine === undefined) return;
      state.machineSettings = machineSettingsOf(state);
      state.machine.send({ kind: "settings" });
      await state.actions;
    },

    submit: (choice) => submit(state, choice),

    userActivity() {
      state.machine?.send({ kind: "user-activity" });
    },

    phase() {
      if (!state.started || state.closed) return "stopped";
      if (state.machine === undefined) return "disabled";
      return state.machine.state().phase;
    },

    async idle() {
      let seen: Promise<void> | undefined;
      while (seen !== state.actions) {
        seen = state.actions;
        await seen;
      }
    },

    async close() {
      if (state.closed) return;
      await end(state);
      state.closed = true;
    },
  };
  return controller;
}

/** Starts the state machine on the configuration (unless network configuration is disabled). */
async function begin(state: ControllerState): Promise<void> {
  const { backend, clock, logger } = state.options;
  if (networkConfigurationDisabled(state)) {
    logger.info("network configuration is disabled: profiles and hotspot left alone");
    return;
  }
  state.provisioned = { ...state.provisioned, known: state.provisioned.known || (await backend.managedLabels()).indexOf(PROVISIONED_LABEL) >= 0 };
  state.machineSettings = machineSettingsOf(state);
  state.machine = createProvisioningMachine({
    clock,
    settings: () => state.machineSettings!,
    onActions: (batch) => enqueueActions(state, batch),
    onState: (machineState) => logger.debug("provisioning state", { phase: machineState.phase.name }),
  });
  state.unsubscribe = backend.onEvent((event) => onNetworkEvent(state, event));
  state.machine.send({ kind: "settings" });
  await refreshStatus(state);
}

/** Stops the state machine; actions still queued are dropped, the hotspot and its portal stopped. */
async function end(state: ControllerState): Promise<void> {
  const { logger } = state.options;
  state.unsubscribe?.();
  state.unsubscribe = undefined;
  // Actions still queued are dropped: they find no machine.
  const stopping = state.machine;
  state.machine = undefined;
  stopping?.close();
  await state.actions;
  state.pending?.resolve({ ok: false, error: "network configuration stopped" });
  state.pending = undefined;
  if (state.hotspotInterface !== undefined || state.hotspotUp) await stopHotspot(state).catch((err) => logger.warn("hotspot stop failed", { error: String(err) }));
  await state.portalStopping;
}

/** A network chosen on the portal: saved, then tried; resolves with how the try went. */
async function submit(state: ControllerState, choice: NetworkSubmission): Promise<SubmissionResult> {
  const { backend, logger } = state.options;
  if (state.machine === undefined || state.closed) return { ok: false, error: "network configuration is not running" };
  const problem = submissionProblem(choice);
  if (problem) return { ok: false, error: problem };
  const managed: ManagedNetwork = { label: PROVISIONED_LABEL, network: provisionedNetwork(choice, state.agent.network_configuration.hotspot_interface) };
  try {
    await backend.applyProfile(managed, { wifiPowerSave: state.agent.network_configuration.wifi_power_save });
  } catch (err) {
    return { ok: false, error: `the network could not be saved: ${String(err)}` };
  }
  state.provisioned = { known: true, managed };
  state.machineSettings = machineSettingsOf(state);
  logger.info("network saved from the portal", { label: PROVISIONED_LABEL, ssid: choice.ssid });
  state.pending?.resolve({ ok: false, error: "replaced by a newer submission" });
  state.pending = undefined;
  const before = state.machine!.state().attempts;
  let resolve: (result: SubmissionResult) => void = () => {};
  const result = new Promise<SubmissionResult>((r) => (resolve = r));
  state.machine!.send({ kind: "submission", label: PROVISIONED_LABEL });
  // The activation runs later, from the action queue, so the answer is awaited from here on.
  if (state.machine !== undefined && state.machine.state().attempts > before) state.pending = { attempt: state.machine.state().attempts, resolve };
  else resolve({ ok: true }); // nothing to try now (already online, or another attempt running): saved for later
  return result;
}

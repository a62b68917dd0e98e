// What the network controller knows, in one place: its parts (fixed at creation) and what it has
// seen and done (moved by the phases: controller-actions.ts carries out the state machine's
// actions, controller-status.ts feeds it what the network looks like). Each phase takes this
// state explicitly.
import {
  provisioningSettings,
  type AgentConfig,
  type Clock,
  type Logger,
  type ProvisioningMachine,
  type ProvisioningSettings,
} from "../../../../../core/index.js";
import type { Connectivity, ManagedNetwork, NetworkBackend } from "../network-backend.js";
import type { NetworkSubmission, PortalSeam, SubmissionResult } from "./portal-seam.js";
import { PROVISIONED_LABEL, PROVISIONED_PRIORITY } from "./provisioned-network.js";

export interface NetworkControllerOptions {
  backend: NetworkBackend;
  /** The agent configuration now; read at start and at each `reconfigure`. */
  settings: () => AgentConfig;
  hostname: string;
  /** The agent clock: the configured minutes run on it (SVC_AGENT_TIME_SCALE). */
  clock: Clock;
  reboot: () => Promise<void>;
  logger: Logger;
  portal?: PortalSeam;
}

export interface PendingSubmission {
  attempt: number;
  resolve: (result: SubmissionResult) => void;
}

export interface ControllerState {
  readonly options: NetworkControllerOptions;
  /** What the portal calls back: the controller's own submit and user activity. */
  readonly portalCalls: { submit(choice: NetworkSubmission): Promise<SubmissionResult>; userActivity(): void };
  agent: AgentConfig;
  /** The provisioning state machine while network configuration runs. */
  machine: ProvisioningMachine | undefined;
  machineSettings: ProvisioningSettings | undefined;
  unsubscribe: (() => void) | undefined;
  started: boolean;
  closed: boolean;
  /** The provisioned profile, when saved or found; its credentials only when saved by this run. */
  provisioned: { known: boolean; managed?: ManagedNetwork };
  connectivity: Connectivity;
  /** The hotspot's interface while it is starting or up; "" while starting on the first wifi device. */
  hotspotInterface: string | undefined;
  hotspotUp: boolean;
  portalStopping: Promise<void>;
  lastSubmissionError: string | undefined;
  /** A portal submission waiting for its activation's outcome. */
  pending: PendingSubmission | undefined;
  /** The tail of the action queue: actions run strictly one after the other. */
  actions: Promise<void>;
  refreshing: boolean;
  refreshAgain: boolean;
}

export function createControllerState(options: NetworkControllerOptions, portalCalls: ControllerState["portalCalls"]): ControllerState {
  return {
    options,
    portalCalls,
    agent: options.settings(),
    machine: undefined,
    machineSettings: undefined,
    unsubscribe: undefined,
    started: false,
    closed: false,
    provisioned: { known: false },
    connectivity: "unknown",
    hotspotInterface: undefined,
    hotspotUp: false,
    portalStopping: Promise.resolve(),
    lastSubmissionError: undefined,
    pending: undefined,
    actions: Promise.resolve(),
    refreshing: false,
    refreshAgain: false,
  };
}

export const networkConfigurationDisabled = (state: ControllerState) => state.agent.advanced_settings.disable_network_configuration;

/** The state machine's settings from the configuration, with the provisioned network once known. */
export function machineSettingsOf(state: ControllerState): ProvisioningSettings {
  const extraNetworks = state.provisioned.known ? [{ label: PROVISIONED_LABEL, priority: PROVISIONED_PRIORITY }] : [];
  return provisioningSettings(state.agent, { hostname: state.options.hostname, extraNetworks });
}

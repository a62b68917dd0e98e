// The words of the provisioning state machine: its settings (durations already in milliseconds),
// its states, what it is told (inputs) and what it asks for (actions). Plain data, so a whole run
// can be written down as JSON and replayed anywhere.

/** NetworkManager's connectivity check result. */
export type NetworkConnectivity = "unknown" | "none" | "portal" | "limited" | "full";

/** A network the agent may activate: a label of `additional_networks` or the provisioned one. */
export interface ProvisioningNetwork {
  label: string;
  /** -999..999, higher is tried first. */
  priority: number;
}

export interface HotspotSettings {
  ssid: string;
  password: string;
  /** "" means the first wifi device. */
  interface: string;
}

export interface ProvisioningSettings {
  /** Networks to try when offline, highest priority first (already ordered and filtered). */
  networks: ProvisioningNetwork[];
  /** `turn_on_hotspot_if_wifi_has_no_internet`: online only with connectivity "full". */
  requireInternet: boolean;
  offlineBeforeHotspotMs: number;
  retryConnectionMs: number;
  userIdleMs: number;
  /** 0: never reboot. */
  rebootAfterOfflineMs: number;
  hotspot: HotspotSettings;
}

/** Where the device stands. `since` is always the start of the current offline period. */
export type ProvisioningPhase =
  /** Before the first network status is known. */
  | { name: "starting" }
  /** `label` is the agent-owned network in use, null when the connection is not the agent's. */
  | { name: "online"; label: string | null }
  /** Offline and nothing being tried: waiting for the hotspot delay. */
  | { name: "offline"; since: number; waitSince: number; tried: string[] }
  /** Offline, one network being activated. `fromHotspot`: a portal submission, back to the hotspot on failure. */
  | { name: "trying"; label: string; attempt: number; since: number; waitSince: number; tried: string[]; fromHotspot: boolean }
  /** The hotspot is up. `userActiveAt`: the last sign of a person on the portal, null when none yet. */
  | { name: "hotspot"; since: number; startedAt: number; userActiveAt: number | null }
  /** The hotspot was left to try other networks; it comes back when nothing changed. */
  | { name: "hotspot-exited"; since: number; exitedAt: number; tried: string[]; trying: string | null; attempt: number }
  | { name: "rebooting"; since: number; at: number };

export interface ProvisioningState {
  phase: ProvisioningPhase;
  /** Numbers activations, so a late result of an abandoned attempt is never taken for a new one. */
  attempts: number;
}

export type ProvisioningInput =
  /** The settings changed (or were first given): profiles are applied again. */
  | { kind: "settings"; now: number }
  /** What the network looks like now. `label`: the agent-owned network in use, if any. */
  | { kind: "status"; now: number; connected: boolean; connectivity: NetworkConnectivity; label: string | null }
  /** The result of an `activate` action; `connectivity` is checked right after a success. */
  | { kind: "activation"; now: number; label: string; attempt: number; ok: boolean; connectivity: NetworkConnectivity }
  | { kind: "tick"; now: number }
  /** A person did something on the portal or the provisioning API. */
  | { kind: "user-activity"; now: number }
  /** A network was saved under `label` from the portal; it is tried at once. */
  | { kind: "submission"; now: number; label: string }
  | { kind: "hotspot-failed"; now: number };

export type ProvisioningAction =
  | { kind: "apply-profiles" }
  | { kind: "activate"; label: string; attempt: number }
  | { kind: "start-hotspot"; ssid: string; password: string; interface: string }
  | { kind: "stop-hotspot" }
  | { kind: "reboot" };

export interface ProvisioningStep {
  state: ProvisioningState;
  actions: ProvisioningAction[];
}

// What the agent's network logic needs from the system's network manager, in its own words.
// NetworkManager over D-Bus implements it (nm/); the provisioning controller and the captive
// portal are written against it, so they never see D-Bus.
import type { AdditionalNetwork } from "../../../../core/index.js";

export type DeviceKind = "wifi" | "wired" | "other";

/** NetworkManager's device states, by name. */
export type DeviceState =
  | "unknown"
  | "unmanaged"
  | "unavailable"
  | "disconnected"
  | "connecting"
  | "connected"
  | "deactivating"
  | "failed";

export interface NetworkDevice {
  interface: string;
  kind: DeviceKind;
  state: DeviceState;
  /** Id of the profile active on the device, if any (agent-owned or not). */
  activeProfile?: string;
}

export interface AccessPoint {
  ssid: string;
  /** 0..100. */
  strength: number;
  /** "open", or the strongest key management offered ("wpa-psk", "sae", "wpa-eap"). */
  security: "open" | "wpa-psk" | "sae" | "wpa-eap";
  frequencyMhz: number;
  /** The wifi interface that sees it. */
  interface: string;
}

/** NetworkManager's connectivity check result. */
export type Connectivity = "unknown" | "none" | "portal" | "limited" | "full";

/** A network the agent owns: a label from `additional_networks` (or one saved by provisioning). */
export interface ManagedNetwork {
  label: string;
  network: AdditionalNetwork;
}

export interface ProfileOptions {
  /** `wifi_power_save`; null leaves the system default. */
  wifiPowerSave: boolean | null;
}

export type ActivationResult = { ok: true; interface: string } | { ok: false; reason: string };

export interface HotspotRequest {
  /** Wifi interface; "" means the first wifi device. */
  interface: string;
  ssid: string;
  password: string;
}

export interface Hotspot {
  interface: string;
  /** The device's IPv4 address on the hotspot (where the portal and DNS responder listen). */
  address: string;
}

export type NetworkEvent =
  | { kind: "device"; interface: string; state: DeviceState; reason?: string }
  | { kind: "connectivity"; connectivity: Connectivity }
  | { kind: "access-points" };

export interface NetworkBackend {
  devices(): Promise<NetworkDevice[]>;
  /** Asks wifi devices to scan, then lists what they see (strongest first, one entry per SSID). */
  scan(): Promise<AccessPoint[]>;
  /** What wifi devices saw last, without a new scan. */
  accessPoints(): Promise<AccessPoint[]>;
  /** Labels of the profiles the agent owns (user profiles are never listed, changed or removed). */
  managedLabels(): Promise<string[]>;
  /** Adds or updates the agent-owned profile for `label`; an unchanged profile is left alone. */
  applyProfile(managed: ManagedNetwork, options: ProfileOptions): Promise<void>;
  /** Removes the agent-owned profile for `label` (deactivating it first); unknown labels are ignored. */
  removeProfile(label: string): Promise<void>;
  /** Activates the profile and waits until it is up or has failed; failure says why. */
  activate(label: string): Promise<ActivationResult>;
  /** The label of the agent-owned profile active now, if any (the highest priority when several). */
  activeLabel(): Promise<string | undefined>;
  /** Asks NetworkManager to check connectivity now and returns the answer. */
  checkConnectivity(): Promise<Connectivity>;
  startHotspot(request: HotspotRequest): Promise<Hotspot>;
  stopHotspot(): Promise<void>;
  /** Called for device state, connectivity and access point changes; returns an unsubscribe. */
  onEvent(listener: (event: NetworkEvent) => void): () => void;
  close(): Promise<void>;
}

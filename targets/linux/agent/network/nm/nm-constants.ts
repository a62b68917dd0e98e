// NetworkManager's numbers (from its D-Bus API reference) and their names in the agent's words:
// device types and states, connectivity, active connection states, access point security flags,
// and the state-change reason codes turned into something a person can read.
import type { Connectivity, DeviceKind, DeviceState } from "../network-backend.js";

export const NM_INTERFACE = "org.freedesktop.NetworkManager";
export const SETTINGS_PATH = "/org/freedesktop/NetworkManager/Settings";
export const SETTINGS_INTERFACE = "org.freedesktop.NetworkManager.Settings";
export const CONNECTION_INTERFACE = "org.freedesktop.NetworkManager.Settings.Connection";
export const DEVICE_INTERFACE = "org.freedesktop.NetworkManager.Device";
export const WIRED_INTERFACE = "org.freedesktop.NetworkManager.Device.Wired";
export const WIRELESS_INTERFACE = "org.freedesktop.NetworkManager.Device.Wireless";
export const ACCESS_POINT_INTERFACE = "org.freedesktop.NetworkManager.AccessPoint";
export const ACTIVE_INTERFACE = "org.freedesktop.NetworkManager.Connection.Active";
export const IP4_CONFIG_INTERFACE = "org.freedesktop.NetworkManager.IP4Config";

export const DEVICE_TYPE_ETHERNET = 1;
export const DEVICE_TYPE_WIFI = 2;
export const DEVICE_TYPE_VETH = 20;

/** A veth takes the same 802-3-ethernet profiles as an Ethernet port, so it counts as wired. */
export function deviceKind(type: number): DeviceKind {
  if (type === DEVICE_TYPE_WIFI) return "wifi";
  if (type === DEVICE_TYPE_ETHERNET || type === DEVICE_TYPE_VETH) return "wired";
  return "other";
}

export const DEVICE_STATE_UNAVAILABLE = 20;
export const DEVICE_STATE_DISCONNECTED = 30;
export const DEVICE_STATE_ACTIVATED = 100;
export const DEVICE_STATE_DEACTIVATING = 110;
export const DEVICE_STATE_FAILED = 120;

/** NMDeviceState: the preparing steps (prepare .. secondaries) are all "connecting". */
export function deviceStateName(state: number): DeviceState {
  if (state === 10) return "unmanaged";
  if (state === 20) return "unavailable";
  if (state === 30) return "disconnected";
  if (state >= 40 && state <= 90) return "connecting";
  if (state === 100) return "connected";
  if (state === 110) return "deactivating";
  if (state === 120) return "failed";
  return "unknown";
}

const CONNECTIVITY: readonly Connectivity[] = ["unknown", "none", "portal", "limited", "full"];

export function connectivityName(value: number): Connectivity {
  return CONNECTIVITY[value] ?? "unknown";
}

export const ACTIVE_STATE_ACTIVATING = 1;
export const ACTIVE_STATE_ACTIVATED = 2;
export const ACTIVE_STATE_DEACTIVATED = 4;

// NM80211ApFlags / NM80211ApSecurityFlags.
export const AP_FLAGS_PRIVACY = 0x1;
export const AP_SEC_KEY_MGMT_PSK = 0x100;
export const AP_SEC_KEY_MGMT_802_1X = 0x200;
export const AP_SEC_KEY_MGMT_SAE = 0x400;

export const DEVICE_REASON_CARRIER = 40;

/** NMDeviceStateReason codes, in words; codes not listed read as "reason <n>". */
const DEVICE_REASONS: Readonly<Record<number, string>> = {
  0: "no reason given",
  1: "unknown error",
  4: "the device could not be configured",
  5: "no IP configuration was available",
  6: "the IP configuration expired",
  7: "the password is missing or wrong",
  8: "the access point disconnected (often a wrong password)",
  9: "the wifi security settings were rejected",
  10: "wifi authentication failed",
  11: "wifi authentication timed out (often a wrong password)",
  15: "the DHCP client could not start",
  16: "DHCP error",
  17: "no DHCP answer",
  18: "the shared connection could not start",
  19: "the shared connection failed",
  35: "the device firmware is missing",
  36: "the device was removed",
  37: "NetworkManager is sleeping",
  38: "the connection profile was removed",
  39: "disconnected on request",
  40: "the link went down (no carrier)",
  41: "an existing connection was taken over",
  50: "a connection it depends on failed",
  53: "the network was not found",
  54: "a secondary connection failed",
  60: "another activation replaced it",
  64: "the IP address is already in use on the network",
  65: "the IP method is not supported",
  67: "the peer was not found",
};

export function deviceReasonWords(reason: number): string {
  return DEVICE_REASONS[reason] ?? `reason ${reason}`;
}

/** NMActiveConnectionStateReason codes, in words. */
const ACTIVE_REASONS: Readonly<Record<number, string>> = {
  0: "unknown error",
  1: "no reason given",
  2: "disconnected on request",
  3: "the device disconnected",
  4: "the service providing the connection stopped",
  5: "the IP configuration was invalid",
  6: "the connection attempt timed out",
  7: "the service did not start in time",
  8: "the service failed to start",
  9: "the password is missing or wrong",
  10: "login failed",
  11: "the connection profile was removed",
  12: "a connection it depends on failed",
  13: "the device could not be created",
  14: "the device was removed",
};

export function activeReasonWords(reason: number): string {
  return ACTIVE_REASONS[reason] ?? `reason ${reason}`;
}

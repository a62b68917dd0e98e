// NetworkManager's numeric codes as they travel on D-Bus (NMDeviceState, NMDeviceStateReason,
// NMActiveConnectionState and its reasons, NMState, NMConnectivityState, NMDeviceType,
// NM80211Mode and the access point flags), by name.
export const DeviceState = {
  UNKNOWN: 0,
  UNMANAGED: 10,
  UNAVAILABLE: 20,
  DISCONNECTED: 30,
  PREPARE: 40,
  CONFIG: 50,
  NEED_AUTH: 60,
  IP_CONFIG: 70,
  IP_CHECK: 80,
  SECONDARIES: 90,
  ACTIVATED: 100,
  DEACTIVATING: 110,
  FAILED: 120,
} as const;

export const DeviceReason = {
  NONE: 0,
  UNKNOWN: 1,
  NOW_MANAGED: 2,
  NO_SECRETS: 7,
  SUPPLICANT_DISCONNECT: 8,
  SUPPLICANT_TIMEOUT: 11,
  CONNECTION_REMOVED: 38,
  USER_REQUESTED: 39,
  CARRIER: 40,
  SSID_NOT_FOUND: 53,
  NEW_ACTIVATION: 60,
} as const;

export const ActiveState = { UNKNOWN: 0, ACTIVATING: 1, ACTIVATED: 2, DEACTIVATING: 3, DEACTIVATED: 4 } as const;

export const ActiveReason = {
  UNKNOWN: 0,
  NONE: 1,
  USER_DISCONNECTED: 2,
  DEVICE_DISCONNECTED: 3,
  NO_SECRETS: 9,
  CONNECTION_REMOVED: 11,
} as const;

export const NmState = {
  ASLEEP: 10,
  DISCONNECTED: 20,
  DISCONNECTING: 30,
  CONNECTING: 40,
  CONNECTED_LOCAL: 50,
  CONNECTED_SITE: 60,
  CONNECTED_GLOBAL: 70,
} as const;

export type ConnectivityName = "unknown" | "none" | "portal" | "limited" | "full";
export const Connectivity: Record<ConnectivityName, number> = { unknown: 0, none: 1, portal: 2, limited: 3, full: 4 };

export const DeviceType = { ETHERNET: 1, WIFI: 2, LOOPBACK: 32 } as const;

export const WifiMode = { UNKNOWN: 0, ADHOC: 1, INFRA: 2, AP: 3 } as const;

/** NM80211ApFlags PRIVACY. */
export const AP_FLAG_PRIVACY = 0x1;
/** NM80211ApSecurityFlags: PAIR_CCMP | GROUP_CCMP | KEY_MGMT_PSK, what a WPA2-PSK access point shows. */
export const RSN_WPA2_PSK = 0x8 | 0x80 | 0x100;

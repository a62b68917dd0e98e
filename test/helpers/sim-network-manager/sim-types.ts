// The simulated world a test controls (devices, access points in range, the internet), what the
// simulated NetworkManager reports back (events), and the messages between the test process and
// the process that serves the simulation.
import type { ConnectivityName } from "./nm-enums.js";

export type { ConnectivityName };

export interface SimAccessPoint {
  ssid: string;
  /** 0..100; default 70. */
  strength?: number;
  /** Default "wpa-psk". */
  security?: "wpa-psk" | "open";
  /** MHz; default 2437. */
  frequency?: number;
  /** The key a "wpa-psk" access point accepts. */
  psk?: string;
  /** Default true. */
  inRange?: boolean;
  /** What DHCP gives a client on this network ("192.168.7.23/24"); default 192.168.<n>.100/24. */
  dhcpAddress?: string;
}

export interface SimWorld {
  /** Wifi interfaces; default ["wlan0"]. */
  wifi?: string[];
  /** Wired interfaces (always with carrier); default none. */
  wired?: string[];
  accessPoints?: SimAccessPoint[];
  /** What the connectivity check finds once a client connection is up; default "full". */
  internet?: ConnectivityName;
  /**
   * Multiplies every simulated delay (association 1.5 s, DHCP 1 s, link-loss timeout 15 s,
   * SSID search 20 s, scan 3 s, ... as NetworkManager and the supplicant take); default 0.01.
   */
  timeScale?: number;
}

export type SimEvent =
  | { at: number; kind: "call"; path: string; interface: string; member: string; connection?: string }
  | { at: number; kind: "device-state"; interface: string; state: number; oldState: number; reason: number }
  | { at: number; kind: "active-state"; id: string; state: number; reason: number }
  | { at: number; kind: "connectivity"; connectivity: ConnectivityName }
  | { at: number; kind: "access-point"; ssid: string; visible: boolean };

export interface SimDeviceSnapshot {
  path: string;
  interface: string;
  kind: "wifi" | "wired" | "loopback";
  state: number;
  /** "infrastructure" or "ap" for wifi devices. */
  mode?: "infrastructure" | "ap";
  /** Id of the active connection, if any. */
  activeConnection?: string;
  /** "a.b.c.d/prefix" entries of the device's IP4Config. */
  addresses: string[];
}

export interface SimConnectionSnapshot {
  path: string;
  id: string;
  uuid: string;
  type: string;
  /** The whole settings, secrets included, as plain JSON (byte arrays as UTF-8 text). */
  settings: Record<string, Record<string, unknown>>;
}

export interface SimSnapshot {
  devices: SimDeviceSnapshot[];
  connections: SimConnectionSnapshot[];
  connectivity: ConnectivityName;
  state: number;
}

/** Requests from the test to the simulation process. */
export type ControlRequest =
  | { op: "addAccessPoint"; accessPoint: SimAccessPoint }
  | { op: "setInRange"; ssid: string; inRange: boolean }
  | { op: "setStrength"; ssid: string; strength: number }
  | { op: "setInternet"; internet: ConnectivityName }
  | { op: "snapshot" };

export type ControlMessage =
  | { type: "ready" }
  | { type: "event"; event: SimEvent }
  | { type: "reply"; id: number; ok: true; value: unknown }
  | { type: "reply"; id: number; ok: false; error: string };

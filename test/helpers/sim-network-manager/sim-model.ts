// The simulated NetworkManager's state, shared by the service (objects and method handlers) and
// the activation state machine: devices, access points, connection profiles, active
// connections, and helpers to read connection settings as NetworkManager does.
import { Variant } from "dbus-next";
import type { ObjectServer } from "./dbus-object-server.js";
import type { ConnectivityName } from "./nm-enums.js";
import type { SimAccessPoint, SimEvent } from "./sim-types.js";

/** a{sa{sv}} as received from dbus-next. */
export type Settings = Record<string, Record<string, Variant>>;

export interface SimDevice {
  index: number;
  path: string;
  iface: string;
  kind: "wifi" | "wired" | "loopback";
  state: number;
  ip4Path: string;
  active?: SimActive;
  /** Settings applied by the running activation (what Reapply changes). */
  applied?: Settings;
  appliedVersion: bigint;
  /** Pending link-loss timer while the access point is gone. */
  linkTimer?: ReturnType<typeof setTimeout>;
}

export interface SimAp {
  path: string;
  spec: Required<Omit<SimAccessPoint, "psk" | "dhcpAddress">> & { psk?: string; dhcpAddress: string };
  /** The access point a hotspot shows for itself, not one seen in a scan. */
  own?: boolean;
}

export interface SimConnection {
  path: string;
  settings: Settings;
  unsaved: boolean;
}

export interface SimActive {
  path: string;
  connection: SimConnection;
  device: SimDevice;
  state: number;
  apPath: string;
  /** Set once the activation is abandoned (deactivated, failed or replaced). */
  cancelled: boolean;
}

export interface SimModel {
  server: ObjectServer;
  devices: SimDevice[];
  /** Access points by SSID (one object each, shared by every wifi device). */
  aps: Map<string, SimAp>;
  connections: SimConnection[];
  actives: SimActive[];
  internet: ConnectivityName;
  connectivity: ConnectivityName;
  nextId: Record<"ap" | "settings" | "active", number>;
  /** Waits `ms` of simulated time (scaled). */
  delay(ms: number): Promise<void>;
  scaled(ms: number): number;
  record(event: DistributiveOmit<SimEvent, "at">): void;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A setting's value, unwrapped. */
export function setting<T = unknown>(settings: Settings, group: string, key: string): T | undefined {
  const v = settings[group]?.[key];
  return v === undefined ? undefined : (v.value as T);
}

export function connectionId(settings: Settings): string {
  return setting<string>(settings, "connection", "id") ?? "";
}

export function ssidOf(settings: Settings): string | undefined {
  const raw = setting<Buffer | number[]>(settings, "802-11-wireless", "ssid");
  return raw === undefined ? undefined : Buffer.from(raw).toString("utf8");
}

/** "infrastructure" unless the profile asks for "ap" (or "adhoc"). */
export function wifiMode(settings: Settings): string {
  return setting<string>(settings, "802-11-wireless", "mode") ?? "infrastructure";
}

const SECRETS: Record<string, string[]> = {
  "802-11-wireless-security": ["psk", "wep-key0", "wep-key1", "wep-key2", "wep-key3", "leap-password"],
  "802-1x": ["password", "private-key-password"],
};

/** The settings without secrets, as GetSettings returns them. */
export function withoutSecrets(settings: Settings): Settings {
  const out: Settings = {};
  for (const [group, values] of Object.entries(settings)) {
    out[group] = Object.fromEntries(Object.entries(values).filter(([k]) => !(SECRETS[group] ?? []).includes(k)));
  }
  return out;
}

/** Only the secrets of one setting, as GetSecrets returns them. */
export function secretsOf(settings: Settings, group: string): Settings {
  const values = settings[group] ?? {};
  return { [group]: Object.fromEntries(Object.entries(values).filter(([k]) => (SECRETS[group] ?? []).includes(k))) };
}

/** Plain JSON for a test to read (byte arrays as text, 64-bit numbers as numbers). */
export function settingsJson(settings: Settings): Record<string, Record<string, unknown>> {
  const plain = (v: unknown): unknown => {
    if (v instanceof Variant) return plain(v.value);
    if (Buffer.isBuffer(v)) return v.toString("utf8");
    if (typeof v === "bigint") return Number(v);
    if (Array.isArray(v)) return v.map(plain);
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
    return v;
  };
  return plain(settings) as Record<string, Record<string, unknown>>;
}

/** Whether a profile may run on a device: its type and, when set, its interface name. */
export function fitsDevice(settings: Settings, device: SimDevice): boolean {
  const type = setting<string>(settings, "connection", "type");
  const name = setting<string>(settings, "connection", "interface-name");
  if (name && name !== device.iface) return false;
  return (type === "802-11-wireless" && device.kind === "wifi") || (type === "802-3-ethernet" && device.kind === "wired");
}

/** IPv4 address-data of a profile ("manual"), as [{address, prefix}]. */
export function manualAddresses(settings: Settings): Array<{ address: string; prefix: number }> {
  const data = setting<Array<Record<string, Variant>>>(settings, "ipv4", "address-data") ?? [];
  const fromData = data.map((d) => ({ address: String(d.address?.value), prefix: Number(d.prefix?.value) }));
  if (fromData.length) return fromData;
  // The deprecated "addresses" (aau, network byte order) still carries static addresses.
  const old = setting<number[][]>(settings, "ipv4", "addresses") ?? [];
  return old.map(([ip = 0, prefix = 24]) => ({
    address: [ip & 255, (ip >>> 8) & 255, (ip >>> 16) & 255, ip >>> 24].join("."),
    prefix,
  }));
}

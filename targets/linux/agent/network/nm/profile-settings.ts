// NetworkManager connection settings built from an `additional_networks` entry, and the check of
// whether a stored profile still matches them. Only the fields listed in OWNED_FIELDS are the
// agent's: they are what is built, compared and written; everything else NetworkManager keeps
// on its own (timestamps, IPv6 defaults) is ignored when comparing.
//
//   type wifi            -> connection.type "802-11-wireless", 802-11-wireless.ssid (bytes),
//                           mode "infrastructure"; psk -> 802-11-wireless-security key-mgmt
//                           "wpa-psk" + psk (no security section when psk is "")
//   type wired           -> connection.type "802-3-ethernet"
//   interface            -> connection.interface-name (absent when "")
//   priority             -> connection.autoconnect-priority (autoconnect true)
//   ipv4_address         -> ipv4.method "auto", or "manual" with ipv4.address-data [{address, prefix}]
//   ipv4_gateway         -> ipv4.gateway (static addresses only)
//   ipv4_dns             -> ipv4.dns (uint32 in network byte order, the form NetworkManager 1.42 takes)
//   ipv4_route_metric    -> ipv4.route-metric
//   wifi_power_save      -> 802-11-wireless.powersave 3 (on) / 2 (off); absent when null
import { Variant } from "dbus-next";
import type { HotspotRequest, ManagedNetwork, ProfileOptions } from "../network-backend.js";
import { HOTSPOT_PROFILE_ID, HOTSPOT_PROFILE_UUID, profileId, profileUuid } from "./profile-identity.js";

/** NetworkManager's `a{sa{sv}}` connection settings. */
export type ProfileSettings = Record<string, Record<string, Variant>>;

export const WIFI_TYPE = "802-11-wireless";
export const WIRED_TYPE = "802-3-ethernet";
const SECURITY = "802-11-wireless-security";
const POWERSAVE_ENABLE = 3;
const POWERSAVE_DISABLE = 2;

/** The fields the agent writes, and the value NetworkManager means when one is absent. */
const OWNED_FIELDS: ReadonlyArray<readonly [string, string, unknown]> = [
  ["connection", "id", undefined],
  ["connection", "uuid", undefined],
  ["connection", "type", undefined],
  ["connection", "interface-name", undefined],
  ["connection", "autoconnect", true],
  ["connection", "autoconnect-priority", 0],
  [WIFI_TYPE, "ssid", undefined],
  [WIFI_TYPE, "mode", undefined],
  [WIFI_TYPE, "powersave", 0],
  [SECURITY, "key-mgmt", undefined],
  [SECURITY, "psk", undefined],
  ["ipv4", "method", undefined],
  ["ipv4", "address-data", undefined],
  ["ipv4", "gateway", undefined],
  ["ipv4", "dns", undefined],
  ["ipv4", "route-metric", -1],
];

export const PSK_MASK = "********";

function parseIpv4(text: string, where: string): number[] {
  const parts = text.split(".").map((part) => Number(part));
  if (parts.length !== 4 || parts.some((part) => !Number.isInteger(part) || part < 0 || part > 255)) {
    throw new Error(`${where}: must be an IPv4 address`);
  }
  return parts;
}

/** An IPv4 address as the uint32 whose bytes in memory are the address: network byte order. */
export function ipv4ToNetworkOrder(text: string, where = "ipv4_dns"): number {
  return new Uint32Array(new Uint8Array(parseIpv4(text, where)).buffer)[0]!;
}

export function ipv4FromNetworkOrder(value: number): string {
  return [...new Uint8Array(new Uint32Array([value]).buffer)].join(".");
}

function ipv4Settings(managed: ManagedNetwork): Record<string, Variant> {
  const { label, network } = managed;
  const where = `additional_networks.${label}`;
  const ipv4: Record<string, Variant> = {};
  if (network.ipv4_address === "auto" || network.ipv4_address === "") {
    ipv4.method = new Variant("s", "auto");
  } else {
    const [address = "", prefixText = ""] = network.ipv4_address.split("/");
    parseIpv4(address, `${where}.ipv4_address`);
    const prefix = Number(prefixText);
    if (!Number.isInteger(prefix) || prefix < 0 || prefix > 32) throw new Error(`${where}.ipv4_address: must be CIDR, e.g. 192.168.1.20/24`);
    ipv4.method = new Variant("s", "manual");
    ipv4["address-data"] = new Variant("aa{sv}", [{ address: new Variant("s", address), prefix: new Variant("u", prefix) }]);
    if (network.ipv4_gateway !== "") {
      parseIpv4(network.ipv4_gateway, `${where}.ipv4_gateway`);
      ipv4.gateway = new Variant("s", network.ipv4_gateway);
    }
  }
  if (network.ipv4_dns.length > 0) {
    ipv4.dns = new Variant("au", network.ipv4_dns.map((dns, i) => ipv4ToNetworkOrder(dns, `${where}.ipv4_dns[${i}]`)));
  }
  ipv4["route-metric"] = new Variant("x", network.ipv4_route_metric);
  return ipv4;
}

/** The whole profile for one label. */
export function buildProfileSettings(managed: ManagedNetwork, options: ProfileOptions): ProfileSettings {
  const { label, network } = managed;
  const wifi = network.type === "wifi";
  const connection: Record<string, Variant> = {
    id: new Variant("s", profileId(label)),
    uuid: new Variant("s", profileUuid(label)),
    type: new Variant("s", wifi ? WIFI_TYPE : WIRED_TYPE),
    autoconnect: new Variant("b", true),
    "autoconnect-priority": new Variant("i", network.priority),
  };
  if (network.interface !== "") connection["interface-name"] = new Variant("s", network.interface);
  const settings: ProfileSettings = { connection, ipv4: ipv4Settings(managed) };
  if (wifi) {
    const wireless: Record<string, Variant> = {
      ssid: new Variant("ay", Buffer.from(network.ssid, "utf8")),
      mode: new Variant("s", "infrastructure"),
    };
    if (options.wifiPowerSave !== null) {
      wireless.powersave = new Variant("u", options.wifiPowerSave ? POWERSAVE_ENABLE : POWERSAVE_DISABLE);
    }
    settings[WIFI_TYPE] = wireless;
    if (network.psk !== "") {
      settings[SECURITY] = { "key-mgmt": new Variant("s", "wpa-psk"), psk: new Variant("s", network.psk) };
    }
  } else {
    settings[WIRED_TYPE] = {};
  }
  return settings;
}

/** The access point profile: `802-11-wireless.mode` "ap", shared IPv4 (NetworkManager runs DHCP). */
export function buildHotspotSettings(request: HotspotRequest, interfaceName: string): ProfileSettings {
  const settings: ProfileSettings = {
    connection: {
      id: new Variant("s", HOTSPOT_PROFILE_ID),
      uuid: new Variant("s", HOTSPOT_PROFILE_UUID),
      type: new Variant("s", WIFI_TYPE),
      autoconnect: new Variant("b", false),
      "interface-name": new Variant("s", interfaceName),
    },
    [WIFI_TYPE]: {
      ssid: new Variant("ay", Buffer.from(request.ssid, "utf8")),
      mode: new Variant("s", "ap"),
    },
    ipv4: { method: new Variant("s", "shared") },
    ipv6: { method: new Variant("s", "ignore") },
  };
  if (request.password !== "") {
    settings[SECURITY] = {
      "key-mgmt": new Variant("s", "wpa-psk"),
      psk: new Variant("s", request.password),
      proto: new Variant("as", ["rsn"]),
      pairwise: new Variant("as", ["ccmp"]),
      group: new Variant("as", ["ccmp"]),
    };
  }
  return settings;
}

/** Plain values (Variants unwrapped, bytes as numbers, 64-bit integers as numbers) for comparing and logging. */
function plain(value: unknown): unknown {
  if (value instanceof Variant) return plain(value.value);
  if (value instanceof Uint8Array) return [...value];
  if (typeof value === "bigint") return Number(value);
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = plain((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

function comparable(value: unknown, absent: unknown): string | undefined {
  const flat = plain(value);
  if (flat === undefined || flat === "" || (Array.isArray(flat) && flat.length === 0)) return undefined;
  const text = JSON.stringify(flat);
  return absent !== undefined && text === JSON.stringify(absent) ? undefined : text;
}

/**
 * The owned fields whose stored value differs from the wanted one (empty when the profile is up
 * to date). `current` is GetSettings' answer with the secrets merged in, Variants or plain values.
 */
export function changedFields(wanted: ProfileSettings, current: Record<string, Record<string, unknown>>): string[] {
  const changed: string[] = [];
  for (const [setting, key, absent] of OWNED_FIELDS) {
    if (comparable(wanted[setting]?.[key], absent) !== comparable(current[setting]?.[key], absent)) {
      changed.push(`${setting}.${key}`);
    }
  }
  if ((wanted[WIRED_TYPE] === undefined) !== (current[WIRED_TYPE] === undefined)) changed.push(WIRED_TYPE);
  return changed;
}

/** The settings as plain values with every secret masked, for debug logs. */
export function maskedSettings(settings: ProfileSettings): Record<string, unknown> {
  const flat = plain(settings) as Record<string, Record<string, unknown>>;
  const security = flat[SECURITY];
  if (security && "psk" in security) flat[SECURITY] = { ...security, psk: PSK_MASK };
  return flat;
}

// The provisioning hotspot: one agent-owned access point profile (see profile-identity) put on
// the requested wifi device, or the first one, and activated; its address is read from the
// device's IPv4 configuration once NetworkManager reports it up. Stopping deletes the profile,
// which also takes the access point down.
import type { Clock } from "../../../../../core/index.js";
import type { Hotspot, HotspotRequest } from "../network-backend.js";
import { activateAndWait } from "./activation.js";
import { listDevices, pickDevice } from "./device-listing.js";
import { unwrap, type NmBus } from "./nm-bus.js";
import { CONNECTION_INTERFACE, DEVICE_INTERFACE, IP4_CONFIG_INTERFACE, SETTINGS_INTERFACE, SETTINGS_PATH } from "./nm-constants.js";
import { HOTSPOT_PROFILE_UUID } from "./profile-identity.js";
import { buildHotspotSettings } from "./profile-settings.js";

async function hotspotProfilePath(nm: NmBus): Promise<string | undefined> {
  try {
    const [path] = await nm.call(SETTINGS_PATH, SETTINGS_INTERFACE, "GetConnectionByUuid", "s", [HOTSPOT_PROFILE_UUID]);
    return String(path);
  } catch {
    return undefined;
  }
}

async function deviceAddress(nm: NmBus, devicePath: string): Promise<string> {
  const configPath = await nm.get<string>(devicePath, DEVICE_INTERFACE, "Ip4Config");
  if (!configPath || configPath === "/") return "";
  const data = unwrap(await nm.get<unknown>(configPath, IP4_CONFIG_INTERFACE, "AddressData")) as Array<{ address?: string }> | undefined;
  return data?.[0]?.address ?? "";
}

export async function startHotspot(nm: NmBus, request: HotspotRequest, timeoutMs: number, clock: Clock): Promise<Hotspot> {
  const device = pickDevice(await listDevices(nm), "wifi", request.interface);
  if (!device || device.kind !== "wifi") {
    throw new Error(request.interface === "" ? "hotspot: no wifi device" : `hotspot: ${request.interface} is not a wifi device`);
  }
  const settings = buildHotspotSettings(request, device.interface);
  let profilePath = await hotspotProfilePath(nm);
  if (profilePath) {
    await nm.call(profilePath, CONNECTION_INTERFACE, "Update", "a{sa{sv}}", [settings]);
  } else {
    const [path] = await nm.call(SETTINGS_PATH, SETTINGS_INTERFACE, "AddConnection", "a{sa{sv}}", [settings]);
    profilePath = String(path);
  }
  const result = await activateAndWait(nm, { profilePath, devicePath: device.path, interfaceName: device.interface, timeoutMs, clock });
  if (!result.ok) throw new Error(`hotspot on ${device.interface}: ${result.reason}`);
  return { interface: device.interface, address: await deviceAddress(nm, device.path) };
}

export async function stopHotspot(nm: NmBus): Promise<void> {
  const path = await hotspotProfilePath(nm);
  if (path) await nm.call(path, CONNECTION_INTERFACE, "Delete");
}

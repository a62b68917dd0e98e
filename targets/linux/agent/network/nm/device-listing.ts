// Devices and access points as NetworkManager sees them, read over D-Bus and put in the agent's
// words. A wifi scan is requested on each wifi device and waited for through its LastScan
// property, so the list that follows is the fresh one.
import type { Clock } from "../../../../../core/index.js";
import type { AccessPoint, NetworkDevice } from "../network-backend.js";
import type { NmBus } from "./nm-bus.js";
import { NM_PATH } from "./nm-bus.js";
import {
  ACCESS_POINT_INTERFACE,
  ACTIVE_INTERFACE,
  AP_FLAGS_PRIVACY,
  AP_SEC_KEY_MGMT_802_1X,
  AP_SEC_KEY_MGMT_PSK,
  AP_SEC_KEY_MGMT_SAE,
  DEVICE_INTERFACE,
  NM_INTERFACE,
  WIRELESS_INTERFACE,
  deviceKind,
  deviceStateName,
} from "./nm-constants.js";

/** A device with its D-Bus path and raw state, for the parts that act on it. */
export interface NmDevice extends NetworkDevice {
  path: string;
  stateCode: number;
  activeConnectionPath: string;
}

const NO_OBJECT = "/";

export async function listDevices(nm: NmBus): Promise<NmDevice[]> {
  const [paths = []] = (await nm.call(NM_PATH, NM_INTERFACE, "GetDevices")) as [string[]?];
  const devices = await Promise.all(paths.map((path) => readDevice(nm, path).catch(() => undefined)));
  return devices.filter((device): device is NmDevice => device !== undefined);
}

export async function readDevice(nm: NmBus, path: string): Promise<NmDevice> {
  const props = await nm.getAll(path, DEVICE_INTERFACE);
  const stateCode = Number(props.State ?? 0);
  const activeConnectionPath = String(props.ActiveConnection ?? NO_OBJECT);
  const device: NmDevice = {
    path,
    interface: String(props.Interface ?? ""),
    kind: deviceKind(Number(props.DeviceType ?? 0)),
    state: deviceStateName(stateCode),
    stateCode,
    activeConnectionPath,
  };
  if (activeConnectionPath !== NO_OBJECT) {
    const id = await nm.get<string>(activeConnectionPath, ACTIVE_INTERFACE, "Id").catch(() => undefined);
    if (id !== undefined) device.activeProfile = id;
  }
  return device;
}

/** The device for `interfaceName`, or the first of `kind` when the name is "". */
export function pickDevice(devices: readonly NmDevice[], kind: "wifi" | "wired", interfaceName: string): NmDevice | undefined {
  if (interfaceName !== "") return devices.find((device) => device.interface === interfaceName);
  return devices.find((device) => device.kind === kind && device.state !== "unmanaged" && device.state !== "unavailable")
    ?? devices.find((device) => device.kind === kind);
}

function security(flags: number, wpaFlags: number, rsnFlags: number): AccessPoint["security"] {
  const keyMgmt = wpaFlags | rsnFlags;
  if (keyMgmt & AP_SEC_KEY_MGMT_802_1X) return "wpa-eap";
  if (keyMgmt & AP_SEC_KEY_MGMT_SAE) return "sae";
  if (keyMgmt & AP_SEC_KEY_MGMT_PSK) return "wpa-psk";
  return flags & AP_FLAGS_PRIVACY ? "wpa-psk" : "open";
}

async function readAccessPoint(nm: NmBus, path: string, interfaceName: string): Promise<AccessPoint | undefined> {
  const props = await nm.getAll(path, ACCESS_POINT_INTERFACE);
  const raw = props.Ssid;
  const ssid = raw instanceof Uint8Array ? Buffer.from(raw).toString("utf8") : Array.isArray(raw) ? Buffer.from(raw as number[]).toString("utf8") : "";
  if (ssid === "") return undefined;
  return {
    ssid,
    strength: Number(props.Strength ?? 0),
    security: security(Number(props.Flags ?? 0), Number(props.WpaFlags ?? 0), Number(props.RsnFlags ?? 0)),
    frequencyMhz: Number(props.Frequency ?? 0),
    interface: interfaceName,
  };
}

/** One entry per SSID (the strongest), strongest first. */
export function strongestPerSsid(points: readonly AccessPoint[]): AccessPoint[] {
  const best = new Map<string, AccessPoint>();
  for (const point of points) {
    const seen = best.get(point.ssid);
    if (!seen || point.strength > seen.strength) best.set(point.ssid, point);
  }
  return [...best.values()].sort((a, b) => b.strength - a.strength || a.ssid.localeCompare(b.ssid));
}

export async function listAccessPoints(nm: NmBus): Promise<AccessPoint[]> {
  const wifi = (await listDevices(nm)).filter((device) => device.kind === "wifi");
  const found: AccessPoint[] = [];
  for (const device of wifi) {
    const [paths = []] = (await nm.call(device.path, WIRELESS_INTERFACE, "GetAllAccessPoints").catch(() => [[]])) as [string[]?];
    const points = await Promise.all(paths.map((path) => readAccessPoint(nm, path, device.interface).catch(() => undefined)));
    for (const point of points) if (point) found.push(point);
  }
  return strongestPerSsid(found);
}

/** Asks every wifi device to scan and waits (up to `timeoutMs`) for each to report a new LastScan. */
export async function requestScans(nm: NmBus, timeoutMs: number, clock: Clock): Promise<void> {
  const wifi = (await listDevices(nm)).filter((device) => device.kind === "wifi");
  await Promise.all(
    wifi.map(async (device) => {
      const done = new Promise<void>((resolve) => {
        const timer = clock.setTimeout(finish, timeoutMs);
        const off = nm.onSignal((signal) => {
          if (signal.path !== device.path || signal.member !== "PropertiesChanged") return;
          const [iface, changed] = signal.body as [string, Record<string, unknown>];
          if (iface === WIRELESS_INTERFACE && changed && "LastScan" in changed) finish();
        });
        function finish(): void {
          clock.clearTimeout(timer);
          off();
          resolve();
        }
      });
      // A refused request (a scan already running) still ends with a new LastScan, or the bound.
      await nm.call(device.path, WIRELESS_INTERFACE, "RequestScan", "a{sv}", [{}]).catch(() => undefined);
      await done;
    }),
  );
}

// How the simulated NetworkManager activates and tears down connections: the device walks
// PREPARE -> CONFIG -> IP_CONFIG -> IP_CHECK -> SECONDARIES -> ACTIVATED with the delays the real
// daemon and the supplicant take (scaled), fails the way they report it (a wrong key: NEED_AUTH
// with SUPPLICANT_DISCONNECT, then FAILED with NO_SECRETS; no such SSID, or the access point gone
// for the link timeout: FAILED with SSID_NOT_FOUND), then DISCONNECTED. Every change is published
// in the order NetworkManager publishes it: PropertiesChanged State, PropertiesChanged
// StateReason, then Device.StateChanged.
import { ActiveReason, ActiveState, DeviceReason, DeviceState, WifiMode } from "./nm-enums.js";
import { NM, NM_ACTIVE, NM_DEVICE, NM_PATH, NM_WIRELESS, nmInterfaces } from "./nm-interfaces.js";
import { connectionId, manualAddresses, setting, ssidOf, wifiMode, type SimActive, type SimConnection, type SimDevice, type SimModel } from "./sim-model.js";
import { activeState, deviceState, isClient, ownAp, refreshManager, setIp4 } from "./sim-publish.js";

export interface Activation {
  /** Creates the active connection and starts activating it; resolves once it is published. */
  activate(connection: SimConnection, device: SimDevice, specificObject: string): SimActive;
  /** Deactivates (user request, removal or replacement), resolving once the device is DISCONNECTED. */
  deactivate(active: SimActive, deviceReason: number, activeReason: number): Promise<void>;
  /** The access point with this SSID left the air: connections to it drop after the link timeout. */
  accessPointGone(ssid: string): void;
  /** The access point came back before the link timed out. */
  accessPointBack(ssid: string): void;
  /** Recomputes the manager's State, Connectivity and connection lists. */
  refreshManager(): void;
}

const ms = {
  prepare: 50,
  associate: 1500,
  wired: 50,
  dhcp: 1000,
  staticIp: 30,
  step: 10,
  secretsAgent: 100,
  ssidSearch: 20_000,
  linkTimeout: 15_000,
  deactivate: 40,
};

export function createActivation(model: SimModel): Activation {
  return {
    activate: (connection, device, specificObject) => activate(model, connection, device, specificObject),
    deactivate: (active, deviceReason, activeReason) => deactivate(model, active, deviceReason, activeReason),
    accessPointGone(ssid) {
      const ap = model.aps.get(ssid);
      for (const device of model.devices) {
        const active = device.active;
        if (!ap || !active || active.apPath !== ap.path || device.linkTimer) continue;
        device.linkTimer = setTimeout(() => {
          device.linkTimer = undefined;
          if (device.active === active && device.state === DeviceState.ACTIVATED) void fail(model, active, DeviceReason.SSID_NOT_FOUND);
        }, model.scaled(ms.linkTimeout));
      }
    },
    accessPointBack(ssid) {
      const ap = model.aps.get(ssid);
      for (const device of model.devices) {
        if (device.linkTimer && ap && device.active?.apPath === ap.path) {
          clearTimeout(device.linkTimer);
          device.linkTimer = undefined;
        }
      }
    },
    refreshManager: () => refreshManager(model),
  };
}

function activate(model: SimModel, connection: SimConnection, device: SimDevice, specificObject: string): SimActive {
  const path = `${NM_PATH}/ActiveConnection/${model.nextId.active++}`;
  const active: SimActive = { path, connection, device, state: ActiveState.UNKNOWN, apPath: "/", cancelled: false };
  const s = connection.settings;
  model.server.add(path, nmInterfaces[NM_ACTIVE]!, {
    Connection: connection.path,
    SpecificObject: specificObject,
    Id: connectionId(s),
    Uuid: setting<string>(s, "connection", "uuid") ?? "",
    Type: setting<string>(s, "connection", "type") ?? "",
    Devices: [device.path],
    State: ActiveState.UNKNOWN,
    StateFlags: 0,
    Default: false,
    Ip4Config: device.ip4Path,
    Dhcp4Config: "/",
    Default6: false,
    Ip6Config: "/",
    Dhcp6Config: "/",
    Vpn: false,
    Controller: "/",
    Master: "/",
  });
  model.actives.push(active);
  model.server.set(NM_PATH, NM, { ActiveConnections: model.actives.map((a) => a.path) });
  void run(model, active);
  return active;
}

function release(model: SimModel, active: SimActive): void {
  const { server } = model;
  const device = active.device;
  if (device.active === active) {
    device.active = undefined;
    device.applied = undefined;
    server.set(device.path, NM_DEVICE, { ActiveConnection: "/" });
    setIp4(model, device, [], "");
    server.set(device.path, NM_DEVICE, { IpInterface: "" });
    if (device.kind === "wifi") {
      server.set(device.path, NM_WIRELESS, { ActiveAccessPoint: "/", Mode: WifiMode.INFRA });
    }
  }
  if (device.linkTimer) clearTimeout(device.linkTimer);
  device.linkTimer = undefined;
  const ap = [...model.aps.values()].find((a) => a.path === active.apPath);
  if (!ap && active.apPath !== "/") server.remove(active.apPath);
}

function retire(model: SimModel, active: SimActive, reason: number): void {
  activeState(model, active, ActiveState.DEACTIVATED, reason);
  model.server.set(active.path, NM_ACTIVE, { Devices: [] });
  model.actives = model.actives.filter((a) => a !== active);
  refreshManager(model);
  model.server.remove(active.path);
}

async function fail(model: SimModel, active: SimActive, deviceReason: number): Promise<void> {
  if (active.cancelled) return;
  active.cancelled = true;
  const device = active.device;
  deviceState(model, device, DeviceState.FAILED, deviceReason);
  release(model, active);
  retire(model, active, deviceReason === DeviceReason.NO_SECRETS ? ActiveReason.NO_SECRETS : ActiveReason.DEVICE_DISCONNECTED);
  await model.delay(ms.step);
  if (!device.active) deviceState(model, device, DeviceState.DISCONNECTED, DeviceReason.NONE);
}

/** Waits; false when the activation was abandoned meanwhile. */
async function wait(model: SimModel, active: SimActive, delay: number): Promise<boolean> {
  await model.delay(delay);
  return !active.cancelled;
}

async function deactivate(model: SimModel, active: SimActive, deviceReason: number, activeReason: number): Promise<void> {
  if (active.cancelled) return;
  active.cancelled = true;
  const device = active.device;
  const attached = device.active === active;
  if (attached) deviceState(model, device, DeviceState.DEACTIVATING, deviceReason);
  activeState(model, active, ActiveState.DEACTIVATING, ActiveReason.UNKNOWN);
  refreshManager(model);
  await model.delay(ms.deactivate);
  release(model, active);
  if (attached) deviceState(model, device, DeviceState.DISCONNECTED, deviceReason);
  retire(model, active, activeReason);
}

/** The walk from PREPARE to ACTIVATED, or to the failure on the way. */
async function run(model: SimModel, active: SimActive): Promise<void> {
  const { server } = model;
  const { device, connection } = active;
  const previous = device.active;
  if (previous && previous !== active) await deactivate(model, previous, DeviceReason.NEW_ACTIVATION, ActiveReason.DEVICE_DISCONNECTED);
  if (active.cancelled) return;
  device.active = active;
  device.applied = connection.settings;
  device.appliedVersion += 1n;
  server.set(device.path, NM_DEVICE, { ActiveConnection: active.path });
  deviceState(model, device, DeviceState.PREPARE, DeviceReason.NONE);
  activeState(model, active, ActiveState.ACTIVATING, ActiveReason.UNKNOWN);
  refreshManager(model);
  if (!(await wait(model, active, ms.prepare))) return;
  deviceState(model, device, DeviceState.CONFIG, DeviceReason.NONE);

  const settings = connection.settings;
  const method = setting<string>(settings, "ipv4", "method") ?? "auto";
  let dhcpAddress = "10.200.0.100/24";
  if (device.kind === "wifi") {
    const joined = await joinWifi(model, active);
    if (joined === undefined) return;
    dhcpAddress = joined;
  } else if (!(await wait(model, active, ms.wired))) return;

  deviceState(model, device, DeviceState.IP_CONFIG, DeviceReason.NONE);
  if (!(await wait(model, active, method === "auto" ? ms.dhcp : ms.staticIp))) return;
  if (method === "shared") setIp4(model, device, [{ address: "10.42.0.1", prefix: 24 }], "");
  else if (method === "manual") setIp4(model, device, manualAddresses(settings), setting<string>(settings, "ipv4", "gateway") ?? "");
  else if (method === "auto") {
    const [address = "", prefix = "24"] = dhcpAddress.split("/");
    setIp4(model, device, [{ address, prefix: Number(prefix) }], address.replace(/\.\d+$/, ".1"));
  }
  server.set(device.path, NM_DEVICE, { IpInterface: device.iface });
  deviceState(model, device, DeviceState.IP_CHECK, DeviceReason.NONE);
  if (!(await wait(model, active, ms.step))) return;
  deviceState(model, device, DeviceState.SECONDARIES, DeviceReason.NONE);
  if (!(await wait(model, active, ms.step))) return;
  deviceState(model, device, DeviceState.ACTIVATED, DeviceReason.NONE);
  activeState(model, active, ActiveState.ACTIVATED, ActiveReason.UNKNOWN);
  server.set(active.path, NM_ACTIVE, { Default: isClient(active) });
  refreshManager(model);
}

/**
 * The wifi part of CONFIG: the hotspot brought up, or the access point found and joined with the
 * profile's key. Returns the address its DHCP hands out ("" for a hotspot's own), or undefined
 * when the activation failed or was abandoned.
 */
async function joinWifi(model: SimModel, active: SimActive): Promise<string | undefined> {
  const { server } = model;
  const { device, connection } = active;
  const settings = connection.settings;
  const ssid = ssidOf(settings) ?? "";
  if (wifiMode(settings) === "ap") {
    server.set(device.path, NM_WIRELESS, { Mode: WifiMode.AP });
    active.apPath = ownAp(model, active);
    return "10.200.0.100/24";
  }
  const ap = model.aps.get(ssid);
  if (!ap || !ap.spec.inRange) {
    await wait(model, active, ms.ssidSearch);
    return void (await fail(model, active, DeviceReason.SSID_NOT_FOUND));
  }
  active.apPath = ap.path;
  server.set(active.path, NM_ACTIVE, { SpecificObject: ap.path });
  const keyMgmt = setting<string>(settings, "802-11-wireless-security", "key-mgmt");
  const psk = setting<string>(settings, "802-11-wireless-security", "psk");
  if ((ap.spec.security === "open") !== (keyMgmt === undefined)) {
    // The supplicant finds no access point matching the profile's security.
    await wait(model, active, ms.ssidSearch);
    return void (await fail(model, active, DeviceReason.SSID_NOT_FOUND));
  }
  if (ap.spec.security === "wpa-psk" && psk === undefined) {
    deviceState(model, device, DeviceState.NEED_AUTH, DeviceReason.NO_SECRETS);
    if (!(await wait(model, active, ms.secretsAgent))) return undefined;
    return void (await fail(model, active, DeviceReason.NO_SECRETS));
  }
  if (!(await wait(model, active, ms.associate))) return undefined;
  if (ap.spec.security === "wpa-psk" && psk !== ap.spec.psk) {
    // The 4-way handshake fails; NetworkManager asks for a new key and no agent has one.
    deviceState(model, device, DeviceState.NEED_AUTH, DeviceReason.SUPPLICANT_DISCONNECT);
    if (!(await wait(model, active, ms.secretsAgent))) return undefined;
    return void (await fail(model, active, DeviceReason.NO_SECRETS));
  }
  server.set(device.path, NM_WIRELESS, { ActiveAccessPoint: ap.path, Mode: WifiMode.INFRA });
  return ap.spec.dhcpAddress;
}

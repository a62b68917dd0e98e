// How the simulated NetworkManager publishes what happens to a device and its active connection,
// in the order NetworkManager publishes it (PropertiesChanged State, PropertiesChanged
// StateReason, then Device.StateChanged), and the manager's own State, Connectivity and
// connection lists worked out again after each change.
import { Variant } from "dbus-next";
import { ActiveState, AP_FLAG_PRIVACY, Connectivity, NmState, RSN_WPA2_PSK, WifiMode } from "./nm-enums.js";
import { NM, NM_ACTIVE, NM_AP, NM_DEVICE, NM_IP4, NM_PATH, nmInterfaces } from "./nm-interfaces.js";
import { connectionId, setting, ssidOf, wifiMode, type SimActive, type SimDevice, type SimModel } from "./sim-model.js";

export function deviceState(model: SimModel, device: SimDevice, state: number, reason: number): void {
  const { server } = model;
  const old = device.state;
  if (old === state) return;
  device.state = state;
  server.set(device.path, NM_DEVICE, { State: state });
  server.set(device.path, NM_DEVICE, { StateReason: [state, reason] });
  server.emit(device.path, NM_DEVICE, "StateChanged", [state, old, reason]);
  model.record({ kind: "device-state", interface: device.iface, state, oldState: old, reason });
}

export function activeState(model: SimModel, active: SimActive, state: number, reason: number): void {
  const { server } = model;
  if (active.state === state) return;
  active.state = state;
  server.emit(active.path, NM_ACTIVE, "StateChanged", [state, reason]);
  server.set(active.path, NM_ACTIVE, { State: state });
  model.record({ kind: "active-state", id: connectionId(active.connection.settings), state, reason });
}

/** A connection that reaches a network (wired, or wifi as a client), as opposed to a hotspot. */
export function isClient(active: SimActive): boolean {
  return active.device.kind === "wired" || wifiMode(active.connection.settings) === "infrastructure";
}

export function refreshManager(model: SimModel): void {
  const { server } = model;
  const activated = model.actives.filter((a) => a.state === ActiveState.ACTIVATED);
  const clients = activated.filter(isClient);
  const connectivity = clients.length ? model.internet : "none";
  if (connectivity !== model.connectivity) {
    model.connectivity = connectivity;
    model.record({ kind: "connectivity", connectivity });
  }
  let state: number = NmState.DISCONNECTED;
  if (activated.length) {
    state = connectivity === "full" ? NmState.CONNECTED_GLOBAL : connectivity === "limited" || connectivity === "portal" ? NmState.CONNECTED_SITE : NmState.CONNECTED_LOCAL;
  } else if (model.actives.some((a) => a.state === ActiveState.ACTIVATING)) state = NmState.CONNECTING;
  else if (model.actives.some((a) => a.state === ActiveState.DEACTIVATING)) state = NmState.DISCONNECTING;
  const primary = clients[0];
  const activating = model.actives.find((a) => a.state === ActiveState.ACTIVATING);
  server.set(NM_PATH, NM, { ActiveConnections: model.actives.map((a) => a.path) });
  server.set(NM_PATH, NM, { ActivatingConnection: activating?.path ?? "/" });
  server.set(NM_PATH, NM, { PrimaryConnection: primary?.path ?? "/" });
  server.set(NM_PATH, NM, { PrimaryConnectionType: primary ? setting<string>(primary.connection.settings, "connection", "type") : "" });
  if (server.get(NM_PATH, NM, "State") !== state) {
    server.set(NM_PATH, NM, { State: state });
    server.emit(NM_PATH, NM, "StateChanged", [state]);
  }
  server.set(NM_PATH, NM, { Connectivity: Connectivity[connectivity] });
}

export function setIp4(model: SimModel, device: SimDevice, addresses: Array<{ address: string; prefix: number }>, gateway: string): void {
  const { server } = model;
  server.set(device.ip4Path, NM_IP4, {
    AddressData: addresses.map((a) => ({ address: new Variant("s", a.address), prefix: new Variant("u", a.prefix) })),
    Addresses: addresses.map((a) => [ipNumber(a.address), a.prefix, gateway ? ipNumber(gateway) : 0]),
    Gateway: gateway,
  });
}

/** The access point a hotspot shows for itself. */
export function ownAp(model: SimModel, active: SimActive): string {
  const { server } = model;
  const settings = active.connection.settings;
  const secured = setting(settings, "802-11-wireless-security", "key-mgmt") !== undefined;
  const path = `${NM_PATH}/AccessPoint/${model.nextId.ap++}`;
  server.add(path, nmInterfaces[NM_AP]!, {
    Flags: secured ? AP_FLAG_PRIVACY : 0,
    WpaFlags: 0,
    RsnFlags: secured ? RSN_WPA2_PSK : 0,
    Ssid: Buffer.from(ssidOf(settings) ?? ""),
    Frequency: 2437,
    HwAddress: server.get(active.device.path, NM_DEVICE, "HwAddress"),
    Mode: WifiMode.AP,
    MaxBitrate: 0,
    Strength: 0,
    LastSeen: -1,
  });
  return path;
}

function ipNumber(address: string): number {
  const [a = 0, b = 0, c = 0, d = 0] = address.split(".").map(Number);
  return (a | (b << 8) | (c << 16) | (d << 24)) >>> 0;
}

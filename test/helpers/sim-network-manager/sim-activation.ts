// How the simulated NetworkManager activates and tears down connections: the device walks
// PREPARE -> CONFIG -> IP_CONFIG -> IP_CHECK -> SECONDARIES -> ACTIVATED with the delays the real
// daemon and the supplicant take (scaled), fails the way they report it (a wrong key: NEED_AUTH
// with SUPPLICANT_DISCONNECT, then FAILED with NO_SECRETS; no such SSID, or the access point gone
// for the link timeout: FAILED with SSID_NOT_FOUND), then DISCONNECTED. Every change is published
// in the order NetworkManager publishes it: PropertiesChanged State, PropertiesChanged
// StateReason, then Device.StateChanged.
import { Variant } from "dbus-next";
import { ActiveReason, ActiveState, AP_FLAG_PRIVACY, Connectivity, DeviceReason, DeviceState, NmState, RSN_WPA2_PSK, WifiMode } from "./nm-enums.js";
import { NM, NM_ACTIVE, NM_AP, NM_DEVICE, NM_IP4, NM_PATH, NM_WIRELESS, nmInterfaces } from "./nm-interfaces.js";
import { connectionId, manualAddresses, setting, ssidOf, wifiMode, type SimActive, type SimConnection, type SimDevice, type SimModel } from "./sim-model.js";

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
  const { server } = model;

  function deviceState(device: SimDevice, state: number, reason: number) {
    const old = device.state;
    if (old === state) return;
    device.state = state;
    server.set(device.path, NM_DEVICE, { State: state });
    server.set(device.path, NM_DEVICE, { StateReason: [state, reason] });
    server.emit(device.path, NM_DEVICE, "StateChanged", [state, old, reason]);
    model.record({ kind: "device-state", interface: device.iface, state, oldState: old, reason });
  }

  function activeState(active: SimActive, state: number, reason: number) {
    if (active.state === state) return;
    active.state = state;
    server.emit(active.path, NM_ACTIVE, "StateChanged", [state, reason]);
    server.set(active.path, NM_ACTIVE, { State: state });
    model.record({ kind: "active-state", id: connectionId(active.connection.settings), state, reason });
  }

  function isClient(active: SimActive) {
    return active.device.kind === "wired" || wifiMode(active.connection.settings) === "infrastructure";
  }

  function refreshManager() {
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

  function setIp4(device: SimDevice, addresses: Array<{ address: string; prefix: number }>, gateway: string) {
    server.set(device.ip4Path, NM_IP4, {
      AddressData: addresses.map((a) => ({ address: new Variant("s", a.address), prefix: new Variant("u", a.prefix) })),
      Addresses: addresses.map((a) => [ipNumber(a.address), a.prefix, gateway ? ipNumber(gateway) : 0]),
      Gateway: gateway,
    });
  }

  function ownAp(active: SimActive): string {
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

  function release(active: SimActive) {
    const device = active.device;
    if (device.active === active) {
      device.active = undefined;
      device.applied = undefined;
      server.set(device.path, NM_DEVICE, { ActiveConnection: "/" });
      setIp4(device, [], "");
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

  function retire(active: SimActive, reason: number) {
    activeState(active, ActiveState.DEACTIVATED, reason);
    server.set(active.path, NM_ACTIVE, { Devices: [] });
    model.actives = model.actives.filter((a) => a !== active);
    refreshManager();
    server.remove(active.path);
  }

  async function fail(active: SimActive, deviceReason: number) {
    if (active.cancelled) return;
    active.cancelled = true;
    const device = active.device;
    deviceState(device, DeviceState.FAILED, deviceReason);
    release(active);
    retire(active, deviceReason === DeviceReason.NO_SECRETS ? ActiveReason.NO_SECRETS : ActiveReason.DEVICE_DISCONNECTED);
    await model.delay(ms.step);
    if (!device.active) deviceState(device, DeviceState.DISCONNECTED, DeviceReason.NONE);
  }

  /** Waits; false when the activation was abandoned meanwhile. */
  async function wait(active: SimActive, delay: number): Promise<boolean> {
    await model.delay(delay);
    return !active.cancelled;
  }

  async function run(active: SimActive) {
    const { device, connection } = active;
    const previous = device.active;
    if (previous && previous !== active) await deactivate(previous, DeviceReason.NEW_ACTIVATION, ActiveReason.DEVICE_DISCONNECTED);
    if (active.cancelled) return;
    device.active = active;
    device.applied = connection.settings;
    device.appliedVersion += 1n;
    server.set(device.path, NM_DEVICE, { ActiveConnection: active.path });
    deviceState(device, DeviceState.PREPARE, DeviceReason.NONE);
    activeState(active, ActiveState.ACTIVATING, ActiveReason.UNKNOWN);
    refreshManager();
    if (!(await wait(active, ms.prepare))) return;
    deviceState(device, DeviceState.CONFIG, DeviceReason.NONE);

    const settings = connection.settings;
    const method = setting<string>(settings, "ipv4", "method") ?? "auto";
    let dhcpAddress = "10.200.0.100/24";
    if (device.kind === "wifi") {
      const ssid = ssidOf(settings) ?? "";
      if (wifiMode(settings) === "ap") {
        server.set(device.path, NM_WIRELESS, { Mode: WifiMode.AP });
        active.apPath = ownAp(active);
      } else {
        const ap = model.aps.get(ssid);
        if (!ap || !ap.spec.inRange) {
          await wait(active, ms.ssidSearch);
          return fail(active, DeviceReason.SSID_NOT_FOUND);
        }
        active.apPath = ap.path;
        server.set(active.path, NM_ACTIVE, { SpecificObject: ap.path });
        const keyMgmt = setting<string>(settings, "802-11-wireless-security", "key-mgmt");
        const psk = setting<string>(settings, "802-11-wireless-security", "psk");
        if ((ap.spec.security === "open") !== (keyMgmt === undefined)) {
          // The supplicant finds no access point matching the profile's security.
          await wait(active, ms.ssidSearch);
          return fail(active, DeviceReason.SSID_NOT_FOUND);
        }
        if (ap.spec.security === "wpa-psk" && psk === undefined) {
          deviceState(device, DeviceState.NEED_AUTH, DeviceReason.NO_SECRETS);
          if (!(await wait(active, ms.secretsAgent))) return;
          return fail(active, DeviceReason.NO_SECRETS);
        }
        if (!(await wait(active, ms.associate))) return;
        if (ap.spec.security === "wpa-psk" && psk !== ap.spec.psk) {
          // The 4-way handshake fails; NetworkManager asks for a new key and no agent has one.
          deviceState(device, DeviceState.NEED_AUTH, DeviceReason.SUPPLICANT_DISCONNECT);
          if (!(await wait(active, ms.secretsAgent))) return;
          return fail(active, DeviceReason.NO_SECRETS);
        }
        server.set(device.path, NM_WIRELESS, { ActiveAccessPoint: ap.path, Mode: WifiMode.INFRA });
        dhcpAddress = ap.spec.dhcpAddress;
      }
    } else if (!(await wait(active, ms.wired))) return;

    deviceState(device, DeviceState.IP_CONFIG, DeviceReason.NONE);
    if (!(await wait(active, method === "auto" ? ms.dhcp : ms.staticIp))) return;
    if (method === "shared") setIp4(device, [{ address: "10.42.0.1", prefix: 24 }], "");
    else if (method === "manual") setIp4(device, manualAddresses(settings), setting<string>(settings, "ipv4", "gateway") ?? "");
    else if (method === "auto") {
      const [address = "", prefix = "24"] = dhcpAddress.split("/");
      setIp4(device, [{ address, prefix: Number(prefix) }], address.replace(/\.\d+$/, ".1"));
    }
    server.set(device.path, NM_DEVICE, { IpInterface: device.iface });
    deviceState(device, DeviceState.IP_CHECK, DeviceReason.NONE);
    if (!(await wait(active, ms.step))) return;
    deviceState(device, DeviceState.SECONDARIES, DeviceReason.NONE);
    if (!(await wait(active, ms.step))) return;
    deviceState(device, DeviceState.ACTIVATED, DeviceReason.NONE);
    activeState(active, ActiveState.ACTIVATED, ActiveReason.UNKNOWN);
    server.set(active.path, NM_ACTIVE, { Default: isClient(active) });
    refreshManager();
  }

  async function deactivate(active: SimActive, deviceReason: number, activeReason: number) {
    if (active.cancelled) return;
    active.cancelled = true;
    const device = active.device;
    const attached = device.active === active;
    if (attached) deviceState(device, DeviceState.DEACTIVATING, deviceReason);
    activeState(active, ActiveState.DEACTIVATING, ActiveReason.UNKNOWN);
    refreshManager();
    await model.delay(ms.deactivate);
    release(active);
    if (attached) deviceState(device, DeviceState.DISCONNECTED, deviceReason);
    retire(active, activeReason);
  }

  return {
    activate(connection, device, specificObject) {
      const path = `${NM_PATH}/ActiveConnection/${model.nextId.active++}`;
      const active: SimActive = { path, connection, device, state: ActiveState.UNKNOWN, apPath: "/", cancelled: false };
      const s = connection.settings;
      server.add(path, nmInterfaces[NM_ACTIVE]!, {
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
      server.set(NM_PATH, NM, { ActiveConnections: model.actives.map((a) => a.path) });
      void run(active);
      return active;
    },
    deactivate,
    accessPointGone(ssid) {
      const ap = model.aps.get(ssid);
      for (const device of model.devices) {
        const active = device.active;
        if (!ap || !active || active.apPath !== ap.path || device.linkTimer) continue;
        device.linkTimer = setTimeout(() => {
          device.linkTimer = undefined;
          if (device.active === active && device.state === DeviceState.ACTIVATED) void fail(active, DeviceReason.SSID_NOT_FOUND);
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
    refreshManager,
  };
}

function ipNumber(address: string): number {
  const [a = 0, b = 0, c = 0, d = 0] = address.split(".").map(Number);
  return (a | (b << 8) | (c << 16) | (d << 24)) >>> 0;
}

// A simulated network device: loopback, wired or wifi, with its IP4Config, the Device methods
// NetworkManager answers (Disconnect, Reapply, GetAppliedConnection), and for wifi the access
// points it sees and scans that take the time a real scan takes (scaled).
import { DBusError } from "dbus-next";
import { uptime } from "node:os";
import { ActiveReason, DeviceReason, DeviceState, DeviceType, WifiMode } from "./nm-enums.js";
import { NM, NM_DEVICE, NM_IP4, NM_PATH, NM_WIRED, NM_WIRELESS, nmInterfaces } from "./nm-interfaces.js";
import { visibleAps } from "./sim-access-points.js";
import type { Activation } from "./sim-activation.js";
import { withoutSecrets, type Settings, type SimDevice, type SimModel } from "./sim-model.js";
import type { SimSettings } from "./sim-settings.js";

const spec = (name: string) => nmInterfaces[name]!;
const fail = (type: string, text: string) => new DBusError(`org.freedesktop.NetworkManager.${type}`, text);
const bootMs = () => Math.round(uptime() * 1000);

export function addSimDevice(model: SimModel, activation: Activation, settings: SimSettings, iface: string, kind: SimDevice["kind"]): void {
  const { server } = model;
  const index = model.devices.length + 1;
  const device: SimDevice = {
    index, iface, kind, path: `${NM_PATH}/Devices/${index}`, ip4Path: `${NM_PATH}/IP4Config/${index}`,
    state: kind === "loopback" ? DeviceState.UNMANAGED : DeviceState.DISCONNECTED, appliedVersion: 0n,
  };
  model.devices.push(device);
  const hw = kind === "loopback" ? "00:00:00:00:00:00" : `02:53:56:00:00:${index.toString(16).padStart(2, "0").toUpperCase()}`;
  server.add(device.ip4Path, spec(NM_IP4), {
    Addresses: [], AddressData: [], Gateway: "", Routes: [], RouteData: [], NameserverData: [], Nameservers: [],
    Domains: [], Searches: [], DnsOptions: [], DnsPriority: 0, WinsServerData: [], WinsServers: [],
  });
  server.add(device.path, spec(NM_DEVICE), {
    Udi: `/sys/devices/virtual/net/${iface}`, Path: "", Interface: iface, IpInterface: "",
    Driver: kind === "wifi" ? "mac80211_sim" : kind === "wired" ? "sim_eth" : "unknown", DriverVersion: "", FirmwareVersion: "",
    Capabilities: 7, Ip4Address: 0, State: device.state,
    StateReason: [device.state, kind === "loopback" ? DeviceReason.UNKNOWN : DeviceReason.NONE],
    ActiveConnection: "/", Ip4Config: device.ip4Path, Dhcp4Config: "/", Ip6Config: "/", Dhcp6Config: "/",
    Managed: kind !== "loopback", Autoconnect: true, FirmwareMissing: false, NmPluginMissing: false,
    DeviceType: kind === "wifi" ? DeviceType.WIFI : kind === "wired" ? DeviceType.ETHERNET : DeviceType.LOOPBACK,
    AvailableConnections: [], PhysicalPortId: "", Mtu: kind === "loopback" ? 65536 : 1500, Metered: 0, LldpNeighbors: [],
    Real: true, Ip4Connectivity: 0, Ip6Connectivity: 0, InterfaceFlags: kind === "loopback" ? 65545 : 65539, HwAddress: hw, Ports: [],
  }, {
    Disconnect: async () => {
      if (!device.active) throw fail("Device.NotActive", "This device is not active");
      void activation.deactivate(device.active, DeviceReason.USER_REQUESTED, ActiveReason.DEVICE_DISCONNECTED);
      return [];
    },
    Reapply: ({ args }) => {
      const [applied] = args as [Settings];
      if (!device.active || device.state !== DeviceState.ACTIVATED) throw fail("Device.NotActive", "Device is not activated");
      device.applied = Object.keys(applied).length ? settings.validate(applied) : device.active.connection.settings;
      device.appliedVersion += 1n;
      return [];
    },
    GetAppliedConnection: () => {
      if (!device.applied) throw fail("Device.NotActive", "Device is not activated");
      return [withoutSecrets(device.applied), device.appliedVersion];
    },
    Delete: () => {
      throw fail("Device.NotSoftware", "This device is not a software device");
    },
  });
  if (kind === "wired") {
    server.add(device.path, spec(NM_WIRED), { HwAddress: hw, PermHwAddress: hw, Speed: 10000, S390Subchannels: [], Carrier: true });
  }
  if (kind === "wifi") {
    server.add(device.path, spec(NM_WIRELESS), {
      HwAddress: hw, PermHwAddress: hw, Mode: WifiMode.INFRA, Bitrate: 0, AccessPoints: [], ActiveAccessPoint: "/",
      WirelessCapabilities: 0x3ff, LastScan: bootMs(),
    }, {
      GetAccessPoints: () => [visibleAps(model)],
      GetAllAccessPoints: () => [visibleAps(model)],
      RequestScan: () => {
        if (server.get(device.path, NM_WIRELESS, "Mode") === WifiMode.AP) throw fail("Device.NotAllowed", "Scanning not allowed while in AP mode");
        setTimeout(() => server.set(device.path, NM_WIRELESS, { LastScan: bootMs() }), model.scaled(3000));
        return [];
      },
    });
  }
  server.set(NM_PATH, NM, { Devices: model.devices.map((d) => d.path), AllDevices: model.devices.map((d) => d.path) });
}

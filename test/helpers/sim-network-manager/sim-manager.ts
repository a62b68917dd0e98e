// The simulated NetworkManager object: its properties, device lookups, activating a profile (or
// adding one and activating it, completed from the chosen access point), deactivating, and the
// connectivity check.
import { DBusError, Variant } from "dbus-next";
import { ActiveReason, Connectivity, DeviceReason, NmState } from "./nm-enums.js";
import { NM, NM_PATH, nmInterfaces } from "./nm-interfaces.js";
import type { Activation } from "./sim-activation.js";
import { connectionId, fitsDevice, ssidOf, type Settings, type SimDevice, type SimModel } from "./sim-model.js";
import type { SimSettings } from "./sim-settings.js";

const spec = (name: string) => nmInterfaces[name]!;
const fail = (type: string, text: string) => new DBusError(`org.freedesktop.NetworkManager.${type}`, text);

export function addSimManager(model: SimModel, activation: Activation, settings: () => SimSettings): void {
  const { server } = model;
  server.add(
    NM_PATH,
    spec(NM),
    {
      Devices: [], AllDevices: [], Checkpoints: [], NetworkingEnabled: true, WirelessEnabled: true,
      WirelessHardwareEnabled: true, WwanEnabled: true, WwanHardwareEnabled: true, WimaxEnabled: false,
      WimaxHardwareEnabled: false, RadioFlags: 0, ActiveConnections: [], PrimaryConnection: "/",
      PrimaryConnectionType: "", Metered: 0, ActivatingConnection: "/", Startup: false, Version: "1.42.4",
      VersionInfo: [76292], Capabilities: [1], State: NmState.DISCONNECTED, Connectivity: Connectivity.none,
      ConnectivityCheckAvailable: true, ConnectivityCheckEnabled: true,
      ConnectivityCheckUri: "http://connectivity-check.invalid/check", GlobalDnsConfiguration: {},
    },
    {
      GetDevices: () => [model.devices.map((d) => d.path)],
      GetAllDevices: () => [model.devices.map((d) => d.path)],
      GetDeviceByIpIface: ({ args }) => {
        const device = model.devices.find((d) => d.iface === args[0]);
        if (!device) throw fail("UnknownDevice", "No device found for the requested iface.");
        return [device.path];
      },
      ActivateConnection: ({ args }) => {
        const [connectionPath, devicePath, specific] = args as [string, string, string];
        const connection = model.connections.find((c) => c.path === connectionPath);
        if (!connection) throw fail("UnknownConnection", "Connection could not be found.");
        return [activation.activate(connection, pickDevice(connection.settings, devicePath), specific).path];
      },
      AddAndActivateConnection: ({ args }) => {
        const [partial, devicePath, specific] = args as [Settings, string, string];
        const completed = complete(partial, specific);
        const device = pickDevice(completed, devicePath);
        const connection = settings().addConnection(completed, false);
        return [connection.path, activation.activate(connection, device, specific).path];
      },
      DeactivateConnection: async ({ args }) => {
        const active = model.actives.find((a) => a.path === args[0]);
        if (!active) throw fail("ConnectionNotActive", "The connection was not active.");
        void activation.deactivate(active, DeviceReason.USER_REQUESTED, ActiveReason.DEVICE_DISCONNECTED);
        return [];
      },
      CheckConnectivity: () => {
        activation.refreshManager();
        return [Connectivity[model.connectivity]];
      },
      state: () => [server.get(NM_PATH, NM, "State")],
      GetPermissions: () => [{}],
      GetLogging: () => ["INFO", ""],
    },
  );

  function pickDevice(profile: Settings, devicePath: string): SimDevice {
    if (devicePath && devicePath !== "/") {
      const device = model.devices.find((d) => d.path === devicePath);
      if (!device) throw fail("UnknownDevice", "Device not found");
      if (!fitsDevice(profile, device)) {
        throw fail("UnknownConnection", `Connection '${connectionId(profile)}' is not available on device ${device.iface} at this time.`);
      }
      return device;
    }
    const device = model.devices.find((d) => fitsDevice(profile, d));
    if (!device) throw fail("UnknownDevice", `No suitable device found for this connection (device ${devicePath} not available because profile is not compatible with device (mismatching interface name)).`);
    return device;
  }

  /** Fills what AddAndActivateConnection may leave out, from the chosen access point. */
  function complete(partial: Settings, specific: string): Settings {
    const out: Settings = Object.fromEntries(Object.entries(partial).map(([group, values]) => [group, { ...values }]));
    const ap = [...model.aps.values()].find((a) => a.path === specific);
    out.connection ??= {};
    if (ap) {
      out["802-11-wireless"] ??= {};
      out["802-11-wireless"].ssid ??= new Variant("ay", Buffer.from(ap.spec.ssid));
      out.connection.type ??= new Variant("s", "802-11-wireless");
      if (ap.spec.security === "wpa-psk") {
        out["802-11-wireless-security"] ??= {};
        out["802-11-wireless-security"]["key-mgmt"] ??= new Variant("s", "wpa-psk");
      }
    }
    out.connection.id ??= new Variant("s", ssidOf(out) ?? "Wired connection 1");
    return out;
  }
}

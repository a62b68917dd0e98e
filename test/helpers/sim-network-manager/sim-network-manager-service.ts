// The simulated NetworkManager on a D-Bus connection: the manager, Settings and its connection
// profiles, devices (lo, wired, wifi) with their IP4Config, access points, active connections,
// at NetworkManager's object paths and with its method handlers and errors. `control` is how the
// test changes the world (access points in range, signal, the internet) and reads it back.
import { DBusError, Variant, type MessageBus } from "dbus-next";
import { randomUUID } from "node:crypto";
import { uptime } from "node:os";
import { createObjectServer, type MethodCall } from "./dbus-object-server.js";
import { ActiveReason, AP_FLAG_PRIVACY, Connectivity, DeviceReason, DeviceState, DeviceType, NmState, RSN_WPA2_PSK, WifiMode } from "./nm-enums.js";
import { NM, NM_AP, NM_CONNECTION, NM_DEVICE, NM_IP4, NM_PATH, NM_SETTINGS, NM_WIRED, NM_WIRELESS, nmInterfaces } from "./nm-interfaces.js";
import { createActivation } from "./sim-activation.js";
import {
  connectionId,
  fitsDevice,
  secretsOf,
  setting,
  settingsJson,
  ssidOf,
  withoutSecrets,
  type Settings,
  type SimAp,
  type SimConnection,
  type SimDevice,
  type SimModel,
} from "./sim-model.js";
import type { ControlRequest, SimAccessPoint, SimEvent, SimSnapshot, SimWorld } from "./sim-types.js";

export interface SimNetworkManagerService {
  control(request: ControlRequest): unknown;
}

const SETTINGS_PATH = `${NM_PATH}/Settings`;
const spec = (name: string) => nmInterfaces[name]!;
const fail = (type: string, text: string) => new DBusError(`org.freedesktop.NetworkManager.${type}`, text);
const bootMs = () => Math.round(uptime() * 1000);

export function createSimNetworkManagerService(bus: MessageBus, world: SimWorld, emit: (event: SimEvent) => void): SimNetworkManagerService {
  const timeScale = world.timeScale ?? 0.01;
  const server = createObjectServer(bus, "/org/freedesktop");
  const model: SimModel = {
    server,
    devices: [],
    aps: new Map(),
    connections: [],
    actives: [],
    internet: world.internet ?? "full",
    connectivity: "none",
    nextId: { ap: 1, settings: 1, active: 1 },
    scaled: (ms) => Math.max(1, Math.round(ms * timeScale)),
    delay: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(1, Math.round(ms * timeScale)))),
    record: (event) => emit({ at: performance.timeOrigin + performance.now(), ...event } as SimEvent),
  };
  const activation = createActivation(model);

  // --- the manager ---------------------------------------------------------------------------
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
        const connection = addConnection(completed, false);
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

  function pickDevice(settings: Settings, devicePath: string): SimDevice {
    if (devicePath && devicePath !== "/") {
      const device = model.devices.find((d) => d.path === devicePath);
      if (!device) throw fail("UnknownDevice", "Device not found");
      if (!fitsDevice(settings, device)) {
        throw fail("UnknownConnection", `Connection '${connectionId(settings)}' is not available on device ${device.iface} at this time.`);
      }
      return device;
    }
    const device = model.devices.find((d) => fitsDevice(settings, d));
    if (!device) throw fail("UnknownDevice", `No suitable device found for this connection (device ${devicePath} not available because profile is not compatible with device (mismatching interface name)).`);
    return device;
  }

  /** Fills what AddAndActivateConnection may leave out, from the chosen access point. */
  function complete(partial: Settings, specific: string): Settings {
    const settings: Settings = Object.fromEntries(Object.entries(partial).map(([group, values]) => [group, { ...values }]));
    const ap = [...model.aps.values()].find((a) => a.path === specific);
    settings.connection ??= {};
    if (ap) {
      settings["802-11-wireless"] ??= {};
      settings["802-11-wireless"].ssid ??= new Variant("ay", Buffer.from(ap.spec.ssid));
      settings.connection.type ??= new Variant("s", "802-11-wireless");
      if (ap.spec.security === "wpa-psk") {
        settings["802-11-wireless-security"] ??= {};
        settings["802-11-wireless-security"]["key-mgmt"] ??= new Variant("s", "wpa-psk");
      }
    }
    settings.connection.id ??= new Variant("s", ssidOf(settings) ?? "Wired connection 1");
    return settings;
  }

  // --- settings ------------------------------------------------------------------------------
  server.add(SETTINGS_PATH, spec(NM_SETTINGS), { Connections: [], Hostname: "", CanModify: true }, {
    ListConnections: () => [model.connections.map((c) => c.path)],
    GetConnectionByUuid: ({ args }) => {
      const found = model.connections.find((c) => setting(c.settings, "connection", "uuid") === args[0]);
      if (!found) throw new DBusError("org.freedesktop.NetworkManager.Settings.InvalidConnection", "No connection with the UUID was found.");
      return [found.path];
    },
    AddConnection: ({ args }) => [addConnection(args[0] as Settings, false).path],
    AddConnectionUnsaved: ({ args }) => [addConnection(args[0] as Settings, true).path],
    AddConnection2: ({ args }) => [addConnection(args[0] as Settings, ((args[1] as number) & 0x2) !== 0).path, {}],
  });

  function validate(settings: Settings): Settings {
    const invalid = (what: string, why = "property is missing") =>
      new DBusError("org.freedesktop.NetworkManager.Settings.Connection.InvalidProperty", `${what}: ${why}`);
    const type = setting<string>(settings, "connection", "type");
    if (!type) throw invalid("connection.type");
    if (!setting<string>(settings, "connection", "id")) throw invalid("connection.id");
    if (type === "802-11-wireless") {
      const ssid = ssidOf(settings);
      if (!ssid) throw invalid("802-11-wireless.ssid");
      if (ssid.length > 32) throw invalid("802-11-wireless.ssid", "SSID length is out of range <1-32> bytes");
      const psk = setting<string>(settings, "802-11-wireless-security", "psk");
      if (psk !== undefined && (psk.length < 8 || psk.length > 64)) throw invalid("802-11-wireless-security.psk", "property is invalid");
    }
    const out: Settings = { ...settings, connection: { ...settings.connection } };
    out.connection!.uuid ??= new Variant("s", randomUUID());
    return out;
  }

  function addConnection(raw: Settings, unsaved: boolean): SimConnection {
    const settings = validate(raw);
    const path = `${SETTINGS_PATH}/${model.nextId.settings++}`;
    const connection: SimConnection = { path, settings, unsaved };
    model.connections.push(connection);
    server.add(path, spec(NM_CONNECTION), {
      Unsaved: unsaved,
      Flags: 0,
      Filename: unsaved ? "" : `/etc/NetworkManager/system-connections/${connectionId(settings)}.nmconnection`,
    }, connectionMethods(connection));
    server.emit(SETTINGS_PATH, NM_SETTINGS, "NewConnection", [path]);
    server.set(SETTINGS_PATH, NM_SETTINGS, { Connections: model.connections.map((c) => c.path) });
    refreshAvailable();
    return connection;
  }

  function connectionMethods(connection: SimConnection) {
    const update = ({ args }: MethodCall) => {
      connection.settings = validate(args[0] as Settings);
      server.emit(connection.path, NM_CONNECTION, "Updated", []);
      refreshAvailable();
      return [];
    };
    return {
      GetSettings: () => [withoutSecrets(connection.settings)],
      GetSecrets: ({ args }: MethodCall) => [secretsOf(connection.settings, String(args[0]))],
      Update: update,
      UpdateUnsaved: update,
      Update2: (call: MethodCall) => {
        update(call);
        return [{}];
      },
      Save: () => [],
      ClearSecrets: () => [],
      Delete: async () => {
        const active = model.actives.find((a) => a.connection === connection);
        if (active) await activation.deactivate(active, DeviceReason.CONNECTION_REMOVED, ActiveReason.CONNECTION_REMOVED);
        model.connections = model.connections.filter((c) => c !== connection);
        server.set(SETTINGS_PATH, NM_SETTINGS, { Connections: model.connections.map((c) => c.path) });
        server.emit(connection.path, NM_CONNECTION, "Removed", []);
        server.emit(SETTINGS_PATH, NM_SETTINGS, "ConnectionRemoved", [connection.path]);
        server.remove(connection.path);
        refreshAvailable();
        return [];
      },
    };
  }

  function refreshAvailable() {
    for (const device of model.devices) {
      const available = model.connections.filter((c) => fitsDevice(c.settings, device)).map((c) => c.path);
      server.set(device.path, NM_DEVICE, { AvailableConnections: available });
    }
  }

  // --- devices -------------------------------------------------------------------------------
  function addDevice(iface: string, kind: SimDevice["kind"]) {
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
        const [settings] = args as [Settings];
        if (!device.active || device.state !== DeviceState.ACTIVATED) throw fail("Device.NotActive", "Device is not activated");
        device.applied = Object.keys(settings).length ? validate(settings) : device.active.connection.settings;
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
        GetAccessPoints: () => [visibleAps()],
        GetAllAccessPoints: () => [visibleAps()],
        RequestScan: () => {
          if (server.get(device.path, NM_WIRELESS, "Mode") === WifiMode.AP) throw fail("Device.NotAllowed", "Scanning not allowed while in AP mode");
          setTimeout(() => server.set(device.path, NM_WIRELESS, { LastScan: bootMs() }), model.scaled(3000));
          return [];
        },
      });
    }
    server.set(NM_PATH, NM, { Devices: model.devices.map((d) => d.path), AllDevices: model.devices.map((d) => d.path) });
  }

  const visibleAps = () => [...model.aps.values()].filter((a) => a.spec.inRange).map((a) => a.path);
  const wifiDevices = () => model.devices.filter((d) => d.kind === "wifi");

  // --- access points -------------------------------------------------------------------------
  function publishAp(ap: SimAp, visible: boolean) {
    for (const device of wifiDevices()) {
      server.set(device.path, NM_WIRELESS, { AccessPoints: visibleAps() });
      server.emit(device.path, NM_WIRELESS, visible ? "AccessPointAdded" : "AccessPointRemoved", [ap.path]);
    }
    model.record({ kind: "access-point", ssid: ap.spec.ssid, visible });
  }

  function addAccessPoint(input: SimAccessPoint) {
    if (model.aps.has(input.ssid)) throw new Error(`access point ${input.ssid} already exists`);
    const n = model.nextId.ap++;
    const ap: SimAp = {
      path: `${NM_PATH}/AccessPoint/${n}`,
      spec: {
        ssid: input.ssid, strength: input.strength ?? 70, security: input.security ?? "wpa-psk",
        frequency: input.frequency ?? 2437, psk: input.psk, inRange: input.inRange ?? true,
        dhcpAddress: input.dhcpAddress ?? `192.168.${100 + n}.100/24`,
      },
    };
    const secured = ap.spec.security !== "open";
    server.add(ap.path, spec(NM_AP), {
      Flags: secured ? AP_FLAG_PRIVACY : 0, WpaFlags: 0, RsnFlags: secured ? RSN_WPA2_PSK : 0, Ssid: Buffer.from(ap.spec.ssid),
      Frequency: ap.spec.frequency, HwAddress: `02:AC:CE:55:00:${n.toString(16).padStart(2, "0").toUpperCase()}`,
      Mode: WifiMode.INFRA, MaxBitrate: 270000, Strength: ap.spec.strength, LastSeen: Math.round(uptime()),
    });
    model.aps.set(ap.spec.ssid, ap);
    if (ap.spec.inRange) publishAp(ap, true);
  }

  function setInRange(ssid: string, inRange: boolean) {
    const ap = model.aps.get(ssid);
    if (!ap) throw new Error(`no access point ${ssid}`);
    if (ap.spec.inRange === inRange) return;
    ap.spec.inRange = inRange;
    publishAp(ap, inRange);
    if (inRange) activation.accessPointBack(ssid);
    else activation.accessPointGone(ssid);
  }

  function snapshot(): SimSnapshot {
    return {
      devices: model.devices.map((d) => ({
        path: d.path, interface: d.iface, kind: d.kind, state: d.state,
        ...(d.kind === "wifi" ? { mode: server.get(d.path, NM_WIRELESS, "Mode") === WifiMode.AP ? ("ap" as const) : ("infrastructure" as const) } : {}),
        ...(d.active ? { activeConnection: connectionId(d.active.connection.settings) } : {}),
        addresses: (server.get(d.ip4Path, NM_IP4, "AddressData") as Array<Record<string, Variant>>).map((a) => `${a.address!.value}/${a.prefix!.value}`),
      })),
      connections: model.connections.map((c) => ({
        path: c.path, id: connectionId(c.settings), uuid: String(setting(c.settings, "connection", "uuid")),
        type: String(setting(c.settings, "connection", "type")), settings: settingsJson(c.settings),
      })),
      connectivity: model.connectivity,
      state: server.get(NM_PATH, NM, "State") as number,
    };
  }

  server.onCall((call) => {
    if (!call.interface.startsWith("org.freedesktop.NetworkManager")) return;
    const target = call.member === "ActivateConnection" ? model.connections.find((c) => c.path === call.args[0]) : undefined;
    const settings = target?.settings ?? (call.member === "AddConnection" || call.member === "AddAndActivateConnection" ? (call.args[0] as Settings) : undefined);
    model.record({ kind: "call", path: call.path, interface: call.interface, member: call.member, ...(settings ? { connection: connectionId(settings) } : {}) });
  });

  addDevice("lo", "loopback");
  for (const iface of world.wired ?? []) addDevice(iface, "wired");
  for (const iface of world.wifi ?? ["wlan0"]) addDevice(iface, "wifi");
  for (const ap of world.accessPoints ?? []) addAccessPoint(ap);

  return {
    control(request) {
      switch (request.op) {
        case "addAccessPoint":
          return addAccessPoint(request.accessPoint);
        case "setInRange":
          return setInRange(request.ssid, request.inRange);
        case "setStrength": {
          const ap = model.aps.get(request.ssid);
          if (!ap) throw new Error(`no access point ${request.ssid}`);
          ap.spec.strength = request.strength;
          return server.set(ap.path, NM_AP, { Strength: request.strength });
        }
        case "setInternet":
          model.internet = request.internet;
          return activation.refreshManager();
        case "snapshot":
          return snapshot();
      }
    },
  };
}

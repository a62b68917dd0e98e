// NetworkManager 1.42's D-Bus interfaces as the daemon publishes them (member names, argument
// names, signatures, property types and access), written compactly: "Name(t arg, ...) -> (t out)"
// for methods and signals, "type Name [rw]" for properties. The wired and core tables were read
// from a running NetworkManager's introspection; Device.Wireless and AccessPoint follow its
// documented API (1.42 no longer has the per-interface PropertiesChanged signals).
import type { ArgSpec, InterfaceSpec } from "./dbus-object-server.js";

interface CompactSpec {
  name: string;
  methods: string[];
  signals: string[];
  properties: string[];
}

function args(list: string): ArgSpec[] {
  return list
    .split(",")
    .map((a) => a.trim())
    .filter((a) => a !== "")
    .map((a) => {
      const [type, name] = a.split(" ") as [string, string];
      return { type, name };
    });
}

function expand(compact: CompactSpec): InterfaceSpec {
  const member = (text: string) => {
    const match = /^(\w+)\(([^)]*)\)(?: -> \(([^)]*)\))?$/.exec(text);
    if (!match) throw new Error(`bad member ${text}`);
    return { name: match[1]!, in: args(match[2]!), out: args(match[3] ?? "") };
  };
  return {
    name: compact.name,
    methods: compact.methods.map(member),
    signals: compact.signals.map((s) => {
      const m = member(s);
      return { name: m.name, args: m.in };
    }),
    properties: compact.properties.map((p) => {
      const [type, name, rw] = p.split(" ") as [string, string, string?];
      return { type, name, access: rw === "rw" ? ("readwrite" as const) : ("read" as const) };
    }),
  };
}

const compact: CompactSpec[] = [
  {
    name: "org.freedesktop.NetworkManager",
    methods: ["Reload(u flags)", "GetDevices() -> (ao devices)", "GetAllDevices() -> (ao devices)", "GetDeviceByIpIface(s iface) -> (o device)", "ActivateConnection(o connection, o device, o specific_object) -> (o active_connection)", "AddAndActivateConnection(a{sa{sv}} connection, o device, o specific_object) -> (o path, o active_connection)", "AddAndActivateConnection2(a{sa{sv}} connection, o device, o specific_object, a{sv} options) -> (o path, o active_connection, a{sv} result)", "DeactivateConnection(o active_connection)", "Sleep(b sleep)", "Enable(b enable)", "GetPermissions() -> (a{ss} permissions)", "SetLogging(s level, s domains)", "GetLogging() -> (s level, s domains)", "CheckConnectivity() -> (u connectivity)", "state() -> (u state)", "CheckpointCreate(ao devices, u rollback_timeout, u flags) -> (o checkpoint)", "CheckpointDestroy(o checkpoint)", "CheckpointRollback(o checkpoint) -> (a{su} result)", "CheckpointAdjustRollbackTimeout(o checkpoint, u add_timeout)"],
    signals: ["CheckPermissions()", "StateChanged(u state)", "DeviceAdded(o device_path)", "DeviceRemoved(o device_path)"],
    properties: ["ao Devices", "ao AllDevices", "ao Checkpoints", "b NetworkingEnabled", "b WirelessEnabled rw", "b WirelessHardwareEnabled", "b WwanEnabled rw", "b WwanHardwareEnabled", "b WimaxEnabled rw", "b WimaxHardwareEnabled", "u RadioFlags", "ao ActiveConnections", "o PrimaryConnection", "s PrimaryConnectionType", "u Metered", "o ActivatingConnection", "b Startup", "s Version", "au VersionInfo", "au Capabilities", "u State", "u Connectivity", "b ConnectivityCheckAvailable", "b ConnectivityCheckEnabled rw", "s ConnectivityCheckUri", "a{sv} GlobalDnsConfiguration rw"],
  },
  {
    name: "org.freedesktop.NetworkManager.Device",
    methods: ["Reapply(a{sa{sv}} connection, t version_id, u flags)", "GetAppliedConnection(u flags) -> (a{sa{sv}} connection, t version_id)", "Disconnect()", "Delete()"],
    signals: ["StateChanged(u new_state, u old_state, u reason)"],
    properties: ["s Udi", "s Path", "s Interface", "s IpInterface", "s Driver", "s DriverVersion", "s FirmwareVersion", "u Capabilities", "u Ip4Address", "u State", "(uu) StateReason", "o ActiveConnection", "o Ip4Config", "o Dhcp4Config", "o Ip6Config", "o Dhcp6Config", "b Managed rw", "b Autoconnect rw", "b FirmwareMissing", "b NmPluginMissing", "u DeviceType", "ao AvailableConnections", "s PhysicalPortId", "u Mtu", "u Metered", "aa{sv} LldpNeighbors", "b Real", "u Ip4Connectivity", "u Ip6Connectivity", "u InterfaceFlags", "s HwAddress", "ao Ports"],
  },
  {
    name: "org.freedesktop.NetworkManager.Device.Wired",
    methods: [],
    signals: [],
    properties: ["s HwAddress", "s PermHwAddress", "u Speed", "as S390Subchannels", "b Carrier"],
  },
  {
    name: "org.freedesktop.NetworkManager.Settings",
    methods: ["ListConnections() -> (ao connections)", "GetConnectionByUuid(s uuid) -> (o connection)", "AddConnection(a{sa{sv}} connection) -> (o path)", "AddConnectionUnsaved(a{sa{sv}} connection) -> (o path)", "AddConnection2(a{sa{sv}} settings, u flags, a{sv} args) -> (o path, a{sv} result)", "LoadConnections(as filenames) -> (b status, as failures)", "ReloadConnections() -> (b status)", "SaveHostname(s hostname)"],
    signals: ["NewConnection(o connection)", "ConnectionRemoved(o connection)"],
    properties: ["ao Connections", "s Hostname", "b CanModify"],
  },
  {
    name: "org.freedesktop.NetworkManager.Settings.Connection",
    methods: ["Update(a{sa{sv}} properties)", "UpdateUnsaved(a{sa{sv}} properties)", "Delete()", "GetSettings() -> (a{sa{sv}} settings)", "GetSecrets(s setting_name) -> (a{sa{sv}} secrets)", "ClearSecrets()", "Save()", "Update2(a{sa{sv}} settings, u flags, a{sv} args) -> (a{sv} result)"],
    signals: ["Updated()", "Removed()"],
    properties: ["b Unsaved", "u Flags", "s Filename"],
  },
  {
    name: "org.freedesktop.NetworkManager.Connection.Active",
    methods: [],
    signals: ["StateChanged(u state, u reason)"],
    properties: ["o Connection", "o SpecificObject", "s Id", "s Uuid", "s Type", "ao Devices", "u State", "u StateFlags", "b Default", "o Ip4Config", "o Dhcp4Config", "b Default6", "o Ip6Config", "o Dhcp6Config", "b Vpn", "o Controller", "o Master"],
  },
  {
    name: "org.freedesktop.NetworkManager.IP4Config",
    methods: [],
    signals: [],
    properties: ["aau Addresses", "aa{sv} AddressData", "s Gateway", "aau Routes", "aa{sv} RouteData", "aa{sv} NameserverData", "au Nameservers", "as Domains", "as Searches", "as DnsOptions", "i DnsPriority", "as WinsServerData", "au WinsServers"],
  },
  {
    name: "org.freedesktop.NetworkManager.Device.Wireless",
    methods: ["GetAccessPoints() -> (ao access_points)", "GetAllAccessPoints() -> (ao access_points)", "RequestScan(a{sv} options)"],
    signals: ["AccessPointAdded(o access_point)", "AccessPointRemoved(o access_point)"],
    properties: ["s HwAddress", "s PermHwAddress", "u Mode", "u Bitrate", "ao AccessPoints", "o ActiveAccessPoint", "u WirelessCapabilities", "x LastScan"],
  },
  {
    name: "org.freedesktop.NetworkManager.AccessPoint",
    methods: [],
    signals: [],
    properties: ["u Flags", "u WpaFlags", "u RsnFlags", "ay Ssid", "u Frequency", "s HwAddress", "u Mode", "u MaxBitrate", "y Strength", "i LastSeen"],
  },
];

export const nmInterfaces: Record<string, InterfaceSpec> = Object.fromEntries(compact.map((c) => [c.name, expand(c)]));

export const NM_SERVICE = "org.freedesktop.NetworkManager";
export const NM_PATH = "/org/freedesktop/NetworkManager";
export const NM = "org.freedesktop.NetworkManager";
export const NM_DEVICE = "org.freedesktop.NetworkManager.Device";
export const NM_WIRED = "org.freedesktop.NetworkManager.Device.Wired";
export const NM_WIRELESS = "org.freedesktop.NetworkManager.Device.Wireless";
export const NM_AP = "org.freedesktop.NetworkManager.AccessPoint";
export const NM_SETTINGS = "org.freedesktop.NetworkManager.Settings";
export const NM_CONNECTION = "org.freedesktop.NetworkManager.Settings.Connection";
export const NM_ACTIVE = "org.freedesktop.NetworkManager.Connection.Active";
export const NM_IP4 = "org.freedesktop.NetworkManager.IP4Config";

// A simulated NetworkManager on a private bus, for tests of what this kernel cannot run for real
// (Wi-Fi, access points, scans, the hotspot).
export { startSimNetworkManager, type SimControl, type SimNetworkManager, type StartSimOptions } from "./start-sim-network-manager.js";
export { startPrivateSystemBus, type PrivateSystemBus } from "./private-system-bus.js";
export { ActiveReason, ActiveState, Connectivity, DeviceReason, DeviceState, DeviceType, NmState, WifiMode } from "./nm-enums.js";
export type { ConnectivityName, SimAccessPoint, SimConnectionSnapshot, SimDeviceSnapshot, SimEvent, SimSnapshot, SimWorld } from "./sim-types.js";

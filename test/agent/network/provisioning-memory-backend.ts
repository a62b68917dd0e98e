// A small NetworkBackend in memory for the controller's tests: a wifi and a wired device, networks
// "in the air" that a test makes appear and disappear, agent-owned profiles, the hotspot, and a
// record of every request. It behaves like NetworkManager where the controller can tell.
import type {
  AccessPoint,
  ActivationResult,
  Connectivity,
  DeviceState,
  HotspotRequest,
  ManagedNetwork,
  NetworkBackend,
  NetworkDevice,
  NetworkEvent,
  ProfileOptions,
} from "../../../targets/linux/agent/network/network-backend.js";

export interface MemoryBackend extends NetworkBackend {
  profiles: Map<string, { managed: ManagedNetwork; options: ProfileOptions }>;
  /** Profiles the user made themselves (never the agent's). */
  userProfiles: string[];
  activations: string[];
  hotspots: HotspotRequest[];
  hotspotStops: number;
  hotspot(): HotspotRequest | undefined;
  /** Makes a network reachable (SSID, or "cable" for wired) with the given internet behind it. */
  appear(name: string, connectivity?: Connectivity): void;
  /** Takes a network away; a device connected to it drops. */
  vanish(name: string): void;
  active(): string | undefined;
}

type DeviceName = "wlan0" | "eth0";

/** The simulated world: what is in the air, the two devices, the internet reached, the hotspot. */
interface World {
  /** SSID (wifi) or "cable" (wired) -> the internet behind it. */
  reachable: Map<string, Connectivity>;
  devices: Record<DeviceName, { kind: "wifi" | "wired"; state: DeviceState; label?: string; hotspot?: boolean }>;
  profiles: MemoryBackend["profiles"];
  connectivity: Connectivity;
  hotspot: HotspotRequest | undefined;
  listeners: Set<(event: NetworkEvent) => void>;
}

const emit = (world: World, event: NetworkEvent) => queueMicrotask(() => world.listeners.forEach((l) => l(event)));
const nameOf = (m: ManagedNetwork) => (m.network.type === "wifi" ? m.network.ssid : "cable");

function setDevice(world: World, name: DeviceName, state: DeviceState, label?: string, isHotspot = false): void {
  world.devices[name] = { kind: world.devices[name].kind, state, label, hotspot: isHotspot };
  emit(world, { kind: "device", interface: name, state });
  const next = reachedConnectivity(world);
  if (next !== world.connectivity) {
    world.connectivity = next;
    emit(world, { kind: "connectivity", connectivity: next });
  }
}

function reachedConnectivity(world: World): Connectivity {
  let best: Connectivity = "none";
  const rank: Connectivity[] = ["unknown", "none", "portal", "limited", "full"];
  for (const device of Object.values(world.devices)) {
    if (device.state !== "connected" || device.hotspot || device.label === undefined) continue;
    const profile = world.profiles.get(device.label);
    const c = profile ? world.reachable.get(nameOf(profile.managed)) ?? "none" : "none";
    if (rank.indexOf(c) > rank.indexOf(best)) best = c;
  }
  return best;
}

async function activate(world: World, label: string): Promise<ActivationResult> {
  const profile = world.profiles.get(label);
  if (!profile) return { ok: false, reason: `no network profile for "${label}"` };
  const iface = profile.managed.network.type === "wifi" ? "wlan0" : "eth0";
  if (iface === "wlan0" && world.hotspot) return { ok: false, reason: "wlan0 is busy with the hotspot" };
  await new Promise((r) => setTimeout(r, 5));
  const name = nameOf(profile.managed);
  if (!world.reachable.has(name)) {
    setDevice(world, iface, iface === "eth0" ? "unavailable" : "disconnected");
    return { ok: false, reason: name === "cable" ? "no carrier on eth0" : `the network "${name}" was not found` };
  }
  setDevice(world, iface, "connected", label);
  return { ok: true, interface: iface };
}

function activeLabel(world: World): string | undefined {
  let best: { label: string; priority: number } | undefined;
  for (const d of Object.values(world.devices)) {
    if (d.state !== "connected" || d.hotspot || d.label === undefined) continue;
    const p = world.profiles.get(d.label);
    if (p && (!best || p.managed.network.priority > best.priority)) best = { label: d.label, priority: p.managed.network.priority };
  }
  return best?.label;
}

export function createMemoryBackend(options: { failHotspot?: boolean } = {}): MemoryBackend {
  const world: World = {
    reachable: new Map(),
    devices: { wlan0: { kind: "wifi", state: "disconnected" }, eth0: { kind: "wired", state: "unavailable" } },
    profiles: new Map(),
    connectivity: "none",
    hotspot: undefined,
    listeners: new Set(),
  };
  const { devices } = world;

  const backend: MemoryBackend = {
    profiles: world.profiles,
    userProfiles: ["Home (user)"],
    activations: [],
    hotspots: [],
    hotspotStops: 0,
    hotspot: () => world.hotspot,

    appear(name, c = "full") {
      world.reachable.set(name, c);
      if (name === "cable" && devices.eth0.state === "unavailable") setDevice(world, "eth0", "disconnected");
      emit(world, { kind: "access-points" });
    },
    vanish(name) {
      world.reachable.delete(name);
      for (const iface of ["wlan0", "eth0"] as const) {
        const label = devices[iface].label;
        const profile = label === undefined ? undefined : backend.profiles.get(label);
        if (profile && nameOf(profile.managed) === name && !devices[iface].hotspot) {
          setDevice(world, iface, name === "cable" ? "unavailable" : "disconnected");
        }
      }
    },
    active: () => Object.values(devices).find((d) => d.state === "connected" && !d.hotspot)?.label,

    async devices(): Promise<NetworkDevice[]> {
      return (Object.keys(devices) as DeviceName[]).map((iface) => {
        const d = devices[iface];
        const activeProfile = d.hotspot ? "svc-hotspot" : d.label === undefined ? undefined : `svc-${d.label}`;
        return activeProfile === undefined ? { interface: iface, kind: d.kind, state: d.state } : { interface: iface, kind: d.kind, state: d.state, activeProfile };
      });
    },
    async scan() {
      return backend.accessPoints();
    },
    async accessPoints(): Promise<AccessPoint[]> {
      return [...world.reachable.keys()].filter((n) => n !== "cable").map((ssid) => ({ ssid, strength: 70, security: "wpa-psk", frequencyMhz: 2412, interface: "wlan0" }));
    },
    async managedLabels() {
      return [...backend.profiles.keys()];
    },
    async applyProfile(managed, options) {
      backend.profiles.set(managed.label, { managed: structuredClone(managed), options: { ...options } });
    },
    async removeProfile(label) {
      for (const iface of ["wlan0", "eth0"] as const) if (devices[iface].label === label) setDevice(world, iface, "disconnected");
      backend.profiles.delete(label);
    },
    async activate(label) {
      backend.activations.push(label);
      return activate(world, label);
    },
    activeLabel: async () => activeLabel(world),
    async checkConnectivity() {
      return world.connectivity;
    },
    async startHotspot(request) {
      if (options.failHotspot) throw new Error("no wifi device can host a hotspot");
      world.hotspot = request;
      backend.hotspots.push(request);
      setDevice(world, "wlan0", "connected", undefined, true);
      return { interface: "wlan0", address: "10.42.0.1" };
    },
    async stopHotspot() {
      if (!world.hotspot) return;
      world.hotspot = undefined;
      backend.hotspotStops++;
      setDevice(world, "wlan0", "disconnected");
    },
    onEvent(listener) {
      world.listeners.add(listener);
      return () => world.listeners.delete(listener);
    },
    async close() {
      world.listeners.clear();
    },
  };
  return backend;
}

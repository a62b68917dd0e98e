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

interface Air {
  /** SSID (wifi) or "cable" (wired) -> the internet behind it. */
  reachable: Map<string, Connectivity>;
}

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

export function createMemoryBackend(options: { failHotspot?: boolean } = {}): MemoryBackend {
  const air: Air = { reachable: new Map() };
  const listeners = new Set<(event: NetworkEvent) => void>();
  const devices: Record<"wlan0" | "eth0", { kind: "wifi" | "wired"; state: DeviceState; label?: string; hotspot?: boolean }> = {
    wlan0: { kind: "wifi", state: "disconnected" },
    eth0: { kind: "wired", state: "unavailable" },
  };
  let connectivity: Connectivity = "none";
  let hotspot: HotspotRequest | undefined;

  const emit = (event: NetworkEvent) => queueMicrotask(() => listeners.forEach((l) => l(event)));
  const nameOf = (m: ManagedNetwork) => (m.network.type === "wifi" ? m.network.ssid : "cable");

  function setDevice(name: "wlan0" | "eth0", state: DeviceState, label?: string, isHotspot = false): void {
    devices[name] = { kind: devices[name].kind, state, label, hotspot: isHotspot };
    emit({ kind: "device", interface: name, state });
    const next = recomputeConnectivity();
    if (next !== connectivity) {
      connectivity = next;
      emit({ kind: "connectivity", connectivity });
    }
  }

  function recomputeConnectivity(): Connectivity {
    let best: Connectivity = "none";
    const rank: Connectivity[] = ["unknown", "none", "portal", "limited", "full"];
    for (const device of Object.values(devices)) {
      if (device.state !== "connected" || device.hotspot || device.label === undefined) continue;
      const profile = backend.profiles.get(device.label);
      const c = profile ? air.reachable.get(nameOf(profile.managed)) ?? "none" : "none";
      if (rank.indexOf(c) > rank.indexOf(best)) best = c;
    }
    return best;
  }

  const backend: MemoryBackend = {
    profiles: new Map(),
    userProfiles: ["Home (user)"],
    activations: [],
    hotspots: [],
    hotspotStops: 0,
    hotspot: () => hotspot,

    appear(name, c = "full") {
      air.reachable.set(name, c);
      if (name === "cable" && devices.eth0.state === "unavailable") setDevice("eth0", "disconnected");
      emit({ kind: "access-points" });
    },
    vanish(name) {
      air.reachable.delete(name);
      for (const iface of ["wlan0", "eth0"] as const) {
        const label = devices[iface].label;
        const profile = label === undefined ? undefined : backend.profiles.get(label);
        if (profile && nameOf(profile.managed) === name && !devices[iface].hotspot) {
          setDevice(iface, name === "cable" ? "unavailable" : "disconnected");
        }
      }
    },
    active: () => Object.values(devices).find((d) => d.state === "connected" && !d.hotspot)?.label,

    async devices(): Promise<NetworkDevice[]> {
      return (Object.keys(devices) as Array<keyof typeof devices>).map((iface) => {
        const d = devices[iface];
        const activeProfile = d.hotspot ? "svc-hotspot" : d.label === undefined ? undefined : `svc-${d.label}`;
        return activeProfile === undefined ? { interface: iface, kind: d.kind, state: d.state } : { interface: iface, kind: d.kind, state: d.state, activeProfile };
      });
    },
    async scan() {
      return backend.accessPoints();
    },
    async accessPoints(): Promise<AccessPoint[]> {
      return [...air.reachable.keys()].filter((n) => n !== "cable").map((ssid) => ({ ssid, strength: 70, security: "wpa-psk", frequencyMhz: 2412, interface: "wlan0" }));
    },
    async managedLabels() {
      return [...backend.profiles.keys()];
    },
    async applyProfile(managed, options) {
      backend.profiles.set(managed.label, { managed: structuredClone(managed), options: { ...options } });
    },
    async removeProfile(label) {
      for (const iface of ["wlan0", "eth0"] as const) if (devices[iface].label === label) setDevice(iface, "disconnected");
      backend.profiles.delete(label);
    },
    async activate(label): Promise<ActivationResult> {
      backend.activations.push(label);
      const profile = backend.profiles.get(label);
      if (!profile) return { ok: false, reason: `no network profile for "${label}"` };
      const iface = profile.managed.network.type === "wifi" ? "wlan0" : "eth0";
      if (iface === "wlan0" && hotspot) return { ok: false, reason: "wlan0 is busy with the hotspot" };
      await new Promise((r) => setTimeout(r, 5));
      const name = nameOf(profile.managed);
      const psk = air.reachable.has(name);
      if (!psk) {
        setDevice(iface, iface === "eth0" ? "unavailable" : "disconnected");
        return { ok: false, reason: name === "cable" ? "no carrier on eth0" : `the network "${name}" was not found` };
      }
      setDevice(iface, "connected", label);
      return { ok: true, interface: iface };
    },
    async activeLabel() {
      let best: { label: string; priority: number } | undefined;
      for (const d of Object.values(devices)) {
        if (d.state !== "connected" || d.hotspot || d.label === undefined) continue;
        const p = backend.profiles.get(d.label);
        if (p && (!best || p.managed.network.priority > best.priority)) best = { label: d.label, priority: p.managed.network.priority };
      }
      return best?.label;
    },
    async checkConnectivity() {
      return connectivity;
    },
    async startHotspot(request) {
      if (options.failHotspot) throw new Error("no wifi device can host a hotspot");
      hotspot = request;
      backend.hotspots.push(request);
      setDevice("wlan0", "connected", undefined, true);
      return { interface: "wlan0", address: "10.42.0.1" };
    },
    async stopHotspot() {
      if (!hotspot) return;
      hotspot = undefined;
      backend.hotspotStops++;
      setDevice("wlan0", "disconnected");
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      listeners.clear();
    },
  };
  return backend;
}

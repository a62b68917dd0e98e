// The simulated NetworkManager on a D-Bus connection: the manager, Settings and its connection
// profiles, devices (lo, wired, wifi) with their IP4Config, access points, active connections,
// at NetworkManager's object paths and with its method handlers and errors. `control` is how the
// test changes the world (access points in range, signal, the internet) and reads it back.
import type { MessageBus, Variant } from "dbus-next";
import { createObjectServer } from "./dbus-object-server.js";
import { WifiMode } from "./nm-enums.js";
import { NM, NM_AP, NM_IP4, NM_PATH, NM_WIRELESS } from "./nm-interfaces.js";
import { addAccessPoint, setInRange } from "./sim-access-points.js";
import { createActivation } from "./sim-activation.js";
import { addSimDevice } from "./sim-devices.js";
import { addSimManager } from "./sim-manager.js";
import { connectionId, setting, settingsJson, type Settings, type SimModel } from "./sim-model.js";
import { addSimSettings } from "./sim-settings.js";
import type { ControlRequest, SimEvent, SimSnapshot, SimWorld } from "./sim-types.js";

export interface SimNetworkManagerService {
  control(request: ControlRequest): unknown;
}

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

  // The manager's object comes first, as on NetworkManager's bus; it adds profiles through Settings.
  addSimManager(model, activation, () => settings);
  const settings = addSimSettings(model, activation);
  server.onCall((call) => {
    if (!call.interface.startsWith("org.freedesktop.NetworkManager")) return;
    const target = call.member === "ActivateConnection" ? model.connections.find((c) => c.path === call.args[0]) : undefined;
    const settings = target?.settings ?? (call.member === "AddConnection" || call.member === "AddAndActivateConnection" ? (call.args[0] as Settings) : undefined);
    model.record({ kind: "call", path: call.path, interface: call.interface, member: call.member, ...(settings ? { connection: connectionId(settings) } : {}) });
  });

  addSimDevice(model, activation, settings, "lo", "loopback");
  for (const iface of world.wired ?? []) addSimDevice(model, activation, settings, iface, "wired");
  for (const iface of world.wifi ?? ["wlan0"]) addSimDevice(model, activation, settings, iface, "wifi");
  for (const ap of world.accessPoints ?? []) addAccessPoint(model, ap);

  return {
    control(request) {
      switch (request.op) {
        case "addAccessPoint":
          return addAccessPoint(model, request.accessPoint);
        case "setInRange":
          return setInRange(model, activation, request.ssid, request.inRange);
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
          return snapshot(model);
      }
    },
  };
}

function snapshot(model: SimModel): SimSnapshot {
  const { server } = model;
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

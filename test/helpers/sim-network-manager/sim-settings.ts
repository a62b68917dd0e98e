// The simulated NetworkManager's Settings: connection profiles added (checked as NetworkManager
// checks them), updated, deleted (deactivated first when active), each with its own object, and
// every device's AvailableConnections kept in line.
import { DBusError, Variant } from "dbus-next";
import { randomUUID } from "node:crypto";
import type { MethodCall } from "./dbus-object-server.js";
import { ActiveReason, DeviceReason } from "./nm-enums.js";
import { NM_CONNECTION, NM_DEVICE, NM_PATH, NM_SETTINGS, nmInterfaces } from "./nm-interfaces.js";
import type { Activation } from "./sim-activation.js";
import { connectionId, fitsDevice, secretsOf, setting, ssidOf, withoutSecrets, type Settings, type SimConnection, type SimModel } from "./sim-model.js";

export const SETTINGS_PATH = `${NM_PATH}/Settings`;
const spec = (name: string) => nmInterfaces[name]!;

export interface SimSettings {
  /** Checks a profile as NetworkManager does, giving it a UUID when it has none. */
  validate(settings: Settings): Settings;
  addConnection(raw: Settings, unsaved: boolean): SimConnection;
}

export function addSimSettings(model: SimModel, activation: Activation): SimSettings {
  const { server } = model;
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

  return { validate, addConnection };
}

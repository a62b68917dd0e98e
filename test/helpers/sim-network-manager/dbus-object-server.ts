// Serves D-Bus objects described by interface tables on a dbus-next connection, the way GDBus
// serves NetworkManager's: Introspect with argument names, Properties Get/GetAll/Set with
// PropertiesChanged, an ObjectManager, typed signals and NetworkManager-style errors. It answers
// every call itself (dbus-next's decorator classes are not used), so what a client sees is
// exactly what the tables say.
import { DBusError, Message, Variant, type MessageBus } from "dbus-next";
import type { InterfaceSpec, MethodCall, MethodHandler, MethodSpec, PropertySpec } from "./dbus-specs.js";
import {
  fail,
  introspectXml,
  OBJECT_MANAGER,
  objectManagerSpec,
  PROPERTIES,
  reply,
  standardCall,
  standardInterfaces,
  variants,
  type Objects,
  type Served,
} from "./dbus-standard-interfaces.js";

export { objectManagerSpec } from "./dbus-standard-interfaces.js";

export type { ArgSpec, InterfaceSpec, MethodCall, MethodHandler, MethodSpec, PropertySpec, SignalSpec } from "./dbus-specs.js";

export interface ObjectServer {
  /** Adds an interface to an object (the object exists once it has one). */
  add(path: string, spec: InterfaceSpec, values: Record<string, unknown>, methods?: Record<string, MethodHandler>): void;
  remove(path: string): void;
  has(path: string): boolean;
  get(path: string, iface: string, property: string): unknown;
  /** Changes properties and emits one PropertiesChanged with those that really changed. */
  set(path: string, iface: string, changes: Record<string, unknown>): void;
  emit(path: string, iface: string, signal: string, args: unknown[]): void;
  /** Called for every method call received, before it is handled. */
  onCall(listener: (call: MethodCall) => void): void;
  introspect(path: string): string;
}

const UNKNOWN_METHOD = "org.freedesktop.DBus.Error.UnknownMethod";
const inSignature = (m: MethodSpec) => m.in.map((a) => a.type).join("");
const INVALID_ARGS = "org.freedesktop.DBus.Error.InvalidArgs";

const same = (a: unknown, b: unknown) => JSON.stringify(a, (_k, v) => (typeof v === "bigint" ? String(v) : v)) === JSON.stringify(b, (_k, v) => (typeof v === "bigint" ? String(v) : v));

/** `managerPath`: where the ObjectManager lives (NetworkManager: /org/freedesktop). */
export function createObjectServer(bus: MessageBus, managerPath: string): ObjectServer {
  const objects: Objects = new Map();
  const callListeners: Array<(call: MethodCall) => void> = [];

  const signal = (path: string, iface: string, name: string, signature: string, body: unknown[]) =>
    bus.send(Message.newSignal(path, iface, name, signature, body));

  function specOf(iface: string, name: string): PropertySpec | undefined {
    for (const served of objects.values()) {
      const s = served.get(iface);
      if (s) return s.spec.properties.find((p) => p.name === name);
    }
    return undefined;
  }

  function handle(msg: Message): boolean {
    const path = msg.path ?? "/";
    const iface = msg.interface ?? "";
    const member = msg.member ?? "";
    const sender = msg.sender ?? "";
    for (const l of callListeners) l({ path, interface: iface, member, sender, args: msg.body ?? [] });
    try {
      const std = [...standardInterfaces, objectManagerSpec].find((s) => s.name === iface);
      const standard = standardCall(objects, managerPath, server.set, msg, path);
      if (standard) {
        reply(bus, msg, std?.methods.find((m) => m.name === member), standard);
        return true;
      }
      const served = objects.get(path);
      const target = iface
        ? served?.get(iface)
        : [...(served?.values() ?? [])].find((s) => s.spec.methods.some((m) => m.name === member));
      const method = target?.spec.methods.find((m) => m.name === member);
      const handler = method && target?.methods[member];
      if (!target || !method || !handler) {
        const where = served ? `object at path ${path}` : `object at path ${path} (no such object)`;
        throw new DBusError(UNKNOWN_METHOD, `No such method “${member}” on interface “${iface}” of ${where}`);
      }
      const got = msg.signature ?? "";
      if (got !== inSignature(method)) {
        throw new DBusError(INVALID_ARGS, `Type of message, “(${got})”, does not match expected type “(${inSignature(method)})”`);
      }
      Promise.resolve()
        .then(() => handler({ path, interface: target.spec.name, member, sender, args: msg.body ?? [] }))
        .then(
          (body) => reply(bus, msg, method, body),
          (error) => fail(bus, msg, error),
        );
    } catch (error) {
      fail(bus, msg, error);
    }
    return true;
  }

  bus.addMethodHandler(handle);

  const server: ObjectServer = {
    add(path, spec, values, methods = {}) {
      let served = objects.get(path);
      if (!served) objects.set(path, (served = new Map()));
      const entry: Served = { spec, values: { ...values }, methods };
      served.set(spec.name, entry);
      if (path.startsWith(`${managerPath}/`)) {
        signal(managerPath, OBJECT_MANAGER, "InterfacesAdded", "oa{sa{sv}}", [path, { [spec.name]: variants(entry) }]);
      }
    },
    remove(path) {
      const served = objects.get(path);
      if (!served) return;
      objects.delete(path);
      if (path.startsWith(`${managerPath}/`)) {
        signal(managerPath, OBJECT_MANAGER, "InterfacesRemoved", "oas", [path, [...served.keys()]]);
      }
    },
    has: (path) => objects.has(path),
    get(path, iface, property) {
      return objects.get(path)?.get(iface)?.values[property];
    },
    set(path, iface, changes) {
      const served = objects.get(path)?.get(iface);
      if (!served) return;
      const changed: Record<string, Variant> = {};
      for (const [name, value] of Object.entries(changes)) {
        if (same(served.values[name], value)) continue;
        served.values[name] = value;
        const p = served.spec.properties.find((x) => x.name === name) ?? specOf(iface, name);
        if (!p) throw new Error(`${iface} has no property ${name}`);
        changed[name] = new Variant(p.type, value);
      }
      if (Object.keys(changed).length) signal(path, PROPERTIES, "PropertiesChanged", "sa{sv}as", [iface, changed, []]);
    },
    emit(path, iface, name, args) {
      const spec = objects.get(path)?.get(iface)?.spec.signals.find((s) => s.name === name);
      if (!spec) throw new Error(`${iface} has no signal ${name}`);
      signal(path, iface, name, spec.args.map((a) => a.type).join(""), args);
    },
    onCall(listener) {
      callListeners.push(listener);
    },
    introspect: (path) => introspectXml(objects, managerPath, path),
  };
  return server;
}

// Serves D-Bus objects described by interface tables on a dbus-next connection, the way GDBus
// serves NetworkManager's: Introspect with argument names, Properties Get/GetAll/Set with
// PropertiesChanged, an ObjectManager, typed signals and NetworkManager-style errors. It answers
// every call itself (dbus-next's decorator classes are not used), so what a client sees is
// exactly what the tables say.
import { DBusError, Message, Variant, type MessageBus } from "dbus-next";

export interface ArgSpec {
  name: string;
  type: string;
}
export interface MethodSpec {
  name: string;
  in: ArgSpec[];
  out: ArgSpec[];
}
export interface SignalSpec {
  name: string;
  args: ArgSpec[];
}
export interface PropertySpec {
  name: string;
  type: string;
  access: "read" | "readwrite";
}
export interface InterfaceSpec {
  name: string;
  methods: MethodSpec[];
  signals: SignalSpec[];
  properties: PropertySpec[];
}

export interface MethodCall {
  path: string;
  interface: string;
  member: string;
  sender: string;
  args: unknown[];
}

/** Returns the reply's body (one element per out argument); throw `DBusError` to fail. */
export type MethodHandler = (call: MethodCall) => unknown[] | Promise<unknown[]>;

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

interface Served {
  spec: InterfaceSpec;
  values: Record<string, unknown>;
  methods: Record<string, MethodHandler>;
}

const PROPERTIES = "org.freedesktop.DBus.Properties";
const INTROSPECTABLE = "org.freedesktop.DBus.Introspectable";
const PEER = "org.freedesktop.DBus.Peer";
const OBJECT_MANAGER = "org.freedesktop.DBus.ObjectManager";
const UNKNOWN_METHOD = "org.freedesktop.DBus.Error.UnknownMethod";
const INVALID_ARGS = "org.freedesktop.DBus.Error.InvalidArgs";

const arg = (type: string, name: string): ArgSpec => ({ type, name });

const standardInterfaces: InterfaceSpec[] = [
  {
    name: PROPERTIES,
    methods: [
      { name: "Get", in: [arg("s", "interface_name"), arg("s", "property_name")], out: [arg("v", "value")] },
      { name: "GetAll", in: [arg("s", "interface_name")], out: [arg("a{sv}", "properties")] },
      { name: "Set", in: [arg("s", "interface_name"), arg("s", "property_name"), arg("v", "value")], out: [] },
    ],
    signals: [
      {
        name: "PropertiesChanged",
        args: [arg("s", "interface_name"), arg("a{sv}", "changed_properties"), arg("as", "invalidated_properties")],
      },
    ],
    properties: [],
  },
  { name: INTROSPECTABLE, methods: [{ name: "Introspect", in: [], out: [arg("s", "xml_data")] }], signals: [], properties: [] },
  {
    name: PEER,
    methods: [
      { name: "Ping", in: [], out: [] },
      { name: "GetMachineId", in: [], out: [arg("s", "machine_uuid")] },
    ],
    signals: [],
    properties: [],
  },
];

export const objectManagerSpec: InterfaceSpec = {
  name: OBJECT_MANAGER,
  methods: [{ name: "GetManagedObjects", in: [], out: [arg("a{oa{sa{sv}}}", "object_paths_interfaces_and_properties")] }],
  signals: [
    { name: "InterfacesAdded", args: [arg("o", "object_path"), arg("a{sa{sv}}", "interfaces_and_properties")] },
    { name: "InterfacesRemoved", args: [arg("o", "object_path"), arg("as", "interfaces")] },
  ],
  properties: [],
};

const inSignature = (m: MethodSpec) => m.in.map((a) => a.type).join("");

function interfaceXml(spec: InterfaceSpec): string {
  const lines = [`  <interface name="${spec.name}">`];
  for (const m of spec.methods) {
    const args = [
      ...m.in.map((a) => `      <arg type="${a.type}" name="${a.name}" direction="in"/>`),
      ...m.out.map((a) => `      <arg type="${a.type}" name="${a.name}" direction="out"/>`),
    ];
    lines.push(args.length ? `    <method name="${m.name}">\n${args.join("\n")}\n    </method>` : `    <method name="${m.name}"/>`);
  }
  for (const s of spec.signals) {
    const args = s.args.map((a) => `      <arg type="${a.type}" name="${a.name}"/>`);
    lines.push(args.length ? `    <signal name="${s.name}">\n${args.join("\n")}\n    </signal>` : `    <signal name="${s.name}"/>`);
  }
  for (const p of spec.properties) lines.push(`    <property type="${p.type}" name="${p.name}" access="${p.access}"/>`);
  lines.push("  </interface>");
  return lines.join("\n");
}

const same = (a: unknown, b: unknown) => JSON.stringify(a, (_k, v) => (typeof v === "bigint" ? String(v) : v)) === JSON.stringify(b, (_k, v) => (typeof v === "bigint" ? String(v) : v));

/** `managerPath`: where the ObjectManager lives (NetworkManager: /org/freedesktop). */
export function createObjectServer(bus: MessageBus, managerPath: string): ObjectServer {
  const objects = new Map<string, Map<string, Served>>();
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

  function variants(served: Served): Record<string, Variant> {
    const out: Record<string, Variant> = {};
    for (const p of served.spec.properties) out[p.name] = new Variant(p.type, served.values[p.name]);
    return out;
  }

  function childrenOf(path: string): string[] {
    const prefix = path === "/" ? "/" : `${path}/`;
    const names = new Set<string>();
    for (const p of [...objects.keys(), managerPath]) {
      if (p.startsWith(prefix) && p !== path) names.add(p.slice(prefix.length).split("/")[0]!);
    }
    return [...names];
  }

  function introspect(path: string): string {
    const served = objects.get(path);
    const own = [...(served?.values() ?? [])].map((s) => s.spec);
    const specs = path === managerPath ? [objectManagerSpec, ...own] : own;
    const body = [...(specs.length ? standardInterfaces : []), ...specs].map(interfaceXml);
    const kids = childrenOf(path).map((k) => `  <node name="${k}"/>`);
    return [
      '<!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"',
      '                      "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">',
      "<node>",
      ...body,
      ...kids,
      "</node>",
      "",
    ].join("\n");
  }

  function managedObjects(): Record<string, Record<string, Record<string, Variant>>> {
    const out: Record<string, Record<string, Record<string, Variant>>> = {};
    for (const [path, served] of objects) {
      if (!path.startsWith(`${managerPath}/`)) continue;
      out[path] = {};
      for (const [name, s] of served) out[path]![name] = variants(s);
    }
    return out;
  }

  function standardCall(msg: Message, path: string): unknown[] | undefined {
    const iface = msg.interface;
    const served = objects.get(path);
    if (iface === INTROSPECTABLE && msg.member === "Introspect") return [introspect(path)];
    if (iface === PEER && msg.member === "Ping") return [];
    if (iface === PEER && msg.member === "GetMachineId") return ["0".repeat(32)];
    if (iface === OBJECT_MANAGER && path === managerPath && msg.member === "GetManagedObjects") return [managedObjects()];
    if (iface !== PROPERTIES) return undefined;
    const [ifaceName, propName] = msg.body as [string, string, Variant?];
    const s = served?.get(ifaceName);
    if (msg.member === "GetAll") return [s ? variants(s) : {}];
    if (!s) throw new DBusError(INVALID_ARGS, `No such interface “${ifaceName}”`);
    const p = s.spec.properties.find((x) => x.name === propName);
    if (!p) throw new DBusError(INVALID_ARGS, `No such property “${propName}”`);
    if (msg.member === "Get") return [new Variant(p.type, s.values[p.name])];
    if (msg.member === "Set") {
      if (p.access !== "readwrite") throw new DBusError(INVALID_ARGS, `Property “${propName}” is not writable`);
      server.set(path, ifaceName, { [p.name]: (msg.body[2] as Variant).value });
      return [];
    }
    return undefined;
  }

  function reply(msg: Message, method: MethodSpec | undefined, body: unknown[]) {
    const signature = method ? method.out.map((a) => a.type).join("") : "";
    bus.send(Message.newMethodReturn(msg, signature, body));
  }

  function fail(msg: Message, error: unknown) {
    // dbus-next's typings name the first parameter a string; it is the call being answered.
    const call = msg as unknown as string;
    if (error instanceof DBusError) bus.send(Message.newError(call, error.type, error.text));
    else bus.send(Message.newError(call, "org.freedesktop.NetworkManager.Failed", String(error)));
  }

  function handle(msg: Message): boolean {
    const path = msg.path ?? "/";
    const iface = msg.interface ?? "";
    const member = msg.member ?? "";
    const sender = msg.sender ?? "";
    for (const l of callListeners) l({ path, interface: iface, member, sender, args: msg.body ?? [] });
    try {
      const std = [...standardInterfaces, objectManagerSpec].find((s) => s.name === iface);
      const standard = standardCall(msg, path);
      if (standard) {
        reply(msg, std?.methods.find((m) => m.name === member), standard);
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
          (body) => reply(msg, method, body),
          (error) => fail(msg, error),
        );
    } catch (error) {
      fail(msg, error);
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
    introspect,
  };
  return server;
}

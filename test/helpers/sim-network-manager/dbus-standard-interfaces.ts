// The interfaces every object on the simulated bus has, answered as GDBus answers them:
// Introspectable (with argument names, and the children of a path), Peer, Properties
// Get/GetAll/Set, and the ObjectManager's GetManagedObjects; and how replies and errors go back.
import { DBusError, Message, Variant, type MessageBus } from "dbus-next";
import type { ArgSpec, InterfaceSpec, MethodHandler, MethodSpec } from "./dbus-specs.js";

/** What is served: path -> interface name -> its spec, property values and method handlers. */
export type Objects = Map<string, Map<string, Served>>;

export interface Served {
  spec: InterfaceSpec;
  values: Record<string, unknown>;
  methods: Record<string, MethodHandler>;
}

export const PROPERTIES = "org.freedesktop.DBus.Properties";
const INTROSPECTABLE = "org.freedesktop.DBus.Introspectable";
const PEER = "org.freedesktop.DBus.Peer";
export const OBJECT_MANAGER = "org.freedesktop.DBus.ObjectManager";
const INVALID_ARGS = "org.freedesktop.DBus.Error.InvalidArgs";

const arg = (type: string, name: string): ArgSpec => ({ type, name });

export const standardInterfaces: InterfaceSpec[] = [
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


export function variants(served: Served): Record<string, Variant> {
  const out: Record<string, Variant> = {};
  for (const p of served.spec.properties) out[p.name] = new Variant(p.type, served.values[p.name]);
  return out;
}

function childrenOf(objects: Objects, managerPath: string, path: string): string[] {
  const prefix = path === "/" ? "/" : `${path}/`;
  const names = new Set<string>();
  for (const p of [...objects.keys(), managerPath]) {
    if (p.startsWith(prefix) && p !== path) names.add(p.slice(prefix.length).split("/")[0]!);
  }
  return [...names];
}

/** The introspection XML of the object at `path`: its interfaces with the standard ones, and its children. */
export function introspectXml(objects: Objects, managerPath: string, path: string): string {
  const served = objects.get(path);
  const own = [...(served?.values() ?? [])].map((s) => s.spec);
  const specs = path === managerPath ? [objectManagerSpec, ...own] : own;
  const body = [...(specs.length ? standardInterfaces : []), ...specs].map(interfaceXml);
  const kids = childrenOf(objects, managerPath, path).map((k) => `  <node name="${k}"/>`);
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

function managedObjects(objects: Objects, managerPath: string): Record<string, Record<string, Record<string, Variant>>> {
  const out: Record<string, Record<string, Record<string, Variant>>> = {};
  for (const [path, served] of objects) {
    if (!path.startsWith(`${managerPath}/`)) continue;
    out[path] = {};
    for (const [name, s] of served) out[path]![name] = variants(s);
  }
  return out;
}

/**
 * The answer to a call of a standard interface (Introspectable, Peer, Properties, the
 * ObjectManager at `managerPath`), or undefined for any other call. `set` changes a property.
 */
export function standardCall(objects: Objects, managerPath: string, set: (path: string, iface: string, changes: Record<string, unknown>) => void, msg: Message, path: string): unknown[] | undefined {
  const iface = msg.interface;
  const served = objects.get(path);
  if (iface === INTROSPECTABLE && msg.member === "Introspect") return [introspectXml(objects, managerPath, path)];
  if (iface === PEER && msg.member === "Ping") return [];
  if (iface === PEER && msg.member === "GetMachineId") return ["0".repeat(32)];
  if (iface === OBJECT_MANAGER && path === managerPath && msg.member === "GetManagedObjects") return [managedObjects(objects, managerPath)];
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
    set(path, ifaceName, { [p.name]: (msg.body[2] as Variant).value });
    return [];
  }
  return undefined;
}

export function reply(bus: MessageBus, msg: Message, method: MethodSpec | undefined, body: unknown[]): void {
  const signature = method ? method.out.map((a) => a.type).join("") : "";
  bus.send(Message.newMethodReturn(msg, signature, body));
}

export function fail(bus: MessageBus, msg: Message, error: unknown): void {
  // dbus-next's typings name the first parameter a string; it is the call being answered.
  const call = msg as unknown as string;
  if (error instanceof DBusError) bus.send(Message.newError(call, error.type, error.text));
  else bus.send(Message.newError(call, "org.freedesktop.NetworkManager.Failed", String(error)));
}

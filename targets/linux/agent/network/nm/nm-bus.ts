// The D-Bus connection to NetworkManager: method calls, property reads and one signal stream.
// Calls go out as plain messages (no introspection round trip per object, so objects that come
// and go quickly, like active connections, never race a proxy being built), and a single match
// rule brings every signal NetworkManager emits to the listeners registered here.
import { DBusError, Message, MessageType, Variant, sessionBus, systemBus, type MessageBus } from "dbus-next";
import { errorMessage } from "../../../../../core/index.js";

export const NM_SERVICE = "org.freedesktop.NetworkManager";
export const NM_PATH = "/org/freedesktop/NetworkManager";
const PROPERTIES = "org.freedesktop.DBus.Properties";
const SIGNAL_RULE = `type='signal',sender='${NM_SERVICE}'`;

/** A NetworkManager call that failed: which method, and D-Bus's error name and text. */
export class NetworkManagerError extends Error {
  readonly method: string;
  readonly dbusName: string;
  constructor(method: string, dbusName: string, text: string, options?: { cause?: unknown }) {
    super(`NetworkManager ${method}: ${text}`, options);
    this.name = "NetworkManagerError";
    this.method = method;
    this.dbusName = dbusName;
  }
}

export interface NmSignal {
  path: string;
  interface: string;
  member: string;
  body: unknown[];
}

export interface NmBus {
  call(path: string, iface: string, member: string, signature?: string, body?: unknown[]): Promise<unknown[]>;
  /** One property, its Variant unwrapped. */
  get<T>(path: string, iface: string, property: string): Promise<T>;
  /** Every property of an interface, Variants unwrapped. */
  getAll(path: string, iface: string): Promise<Record<string, unknown>>;
  onSignal(listener: (signal: NmSignal) => void): () => void;
  /** Disconnects the bus if this object opened it. */
  close(): Promise<void>;
}

export interface NmBusOptions {
  /** A connected bus to share, or a bus address; the system bus (DBUS_SYSTEM_BUS_ADDRESS) when absent. */
  bus?: MessageBus | string;
}

/** A Variant's value, recursively (dictionaries of Variants included). */
export function unwrap(value: unknown): unknown {
  if (value instanceof Variant) return unwrap(value.value);
  if (Array.isArray(value)) return value.map(unwrap);
  if (value !== null && typeof value === "object" && !(value instanceof Uint8Array)) {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) out[key] = unwrap(inner);
    return out;
  }
  return value;
}

export async function openNmBus(options: NmBusOptions = {}): Promise<NmBus> {
  const given = options.bus;
  const owned = given === undefined || typeof given === "string";
  const bus: MessageBus =
    given === undefined ? systemBus() : typeof given === "string" ? sessionBus({ busAddress: given }) : given;
  const listeners = new Set<(signal: NmSignal) => void>();
  // A bus that cannot be reached (no system bus on this machine) or goes away later emits
  // "error"; unhandled, that would end the agent. Connecting fails with it instead.
  const failed = new Promise<never>((_, reject) => bus.on("error", (error: Error) => reject(error)));
  failed.catch(() => {});

  const call = async (path: string, iface: string, member: string, signature = "", body: unknown[] = []): Promise<unknown[]> => {
    const message = new Message({ destination: NM_SERVICE, path, interface: iface, member, signature, body });
    try {
      const reply = await bus.call(message);
      return reply?.body ?? [];
    } catch (error) {
      if (error instanceof DBusError) throw new NetworkManagerError(member, error.type, error.text, { cause: error });
      throw new NetworkManagerError(member, "", errorMessage(error), { cause: error });
    }
  };

  const onMessage = (message: Message): void => {
    if (message.type !== MessageType.SIGNAL || !message.path?.startsWith(NM_PATH)) return;
    const signal: NmSignal = { path: message.path, interface: message.interface, member: message.member, body: message.body };
    for (const listener of [...listeners]) listener(signal);
  };
  bus.on("message", onMessage);

  const matchRule = (member: "AddMatch" | "RemoveMatch"): Message =>
    new Message({
      destination: "org.freedesktop.DBus",
      path: "/org/freedesktop/DBus",
      interface: "org.freedesktop.DBus",
      member,
      signature: "s",
      body: [SIGNAL_RULE],
    });
  try {
    await Promise.race([bus.call(matchRule("AddMatch")), failed]);
  } catch (error) {
    bus.off("message", onMessage);
    if (owned) bus.disconnect();
    throw new NetworkManagerError("AddMatch", error instanceof DBusError ? error.type : "", String(error), { cause: error });
  }

  return {
    call,
    async get<T>(path: string, iface: string, property: string): Promise<T> {
      const [value] = await call(path, PROPERTIES, "Get", "ss", [iface, property]);
      return unwrap(value) as T;
    },
    async getAll(path, iface) {
      const [value] = await call(path, PROPERTIES, "GetAll", "s", [iface]);
      return (unwrap(value) ?? {}) as Record<string, unknown>;
    },
    onSignal(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      listeners.clear();
      bus.off("message", onMessage);
      if (owned) bus.disconnect();
      else {
        await bus.call(matchRule("RemoveMatch")).catch(() => undefined);
      }
    },
  };
}

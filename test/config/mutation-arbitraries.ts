// Random damage done to a valid configuration, for the property tests: keys deleted, values
// replaced by junk (other types, huge numbers, nested garbage), keys inserted, items appended.
import fc from "fast-check";
import type { Json } from "./helpers.js";

export const valid: Json = {
  components: [
    {
      name: "board",
      api: "rdk:component:board",
      model: "fake",
      attributes: { pins: { led: "12" } },
      frame: {
        parent: "world",
        translation: { x: 10, y: 0, z: 5 },
        orientation: { type: "ov_degrees", value: { x: 0, y: 0, z: 1, th: 90 } },
        geometry: { type: "box", x: 80, y: 50, z: 10, label: "board" },
      },
    },
    {
      name: "left",
      type: "motor",
      model: "gpio",
      attributes: { board: "board", max_rpm: 200 },
      depends_on: ["board"],
      frame: { parent: "board", orientation: { type: "quaternion", value: { w: 1, x: 0, y: 0, z: 0 } }, geometry: { r: 20, l: 60 } },
    },
    { name: "temp", namespace: "rdk", type: "sensor", model: "fake", log_configuration: { level: "Debug" } },
  ],
  services: [{ name: "nav", type: "navigation" }],
  modules: [
    { type: "local", name: "local-mod", executable_path: "/opt/mod/run", env: { A: "1" }, log_level: "info" },
    { type: "registry", name: "reg-mod", module_id: "acme:camera", version: "1.2.3" },
  ],
  maintenance: { sensor_name: "rdk:component:sensor/temp", maintenance_allowed_key: "ok" },
  log: [{ pattern: "rdk.resource_manager.rdk:component:motor/*", level: "warn" }],
  debug: false,
  disable_log_deduplication: true,
  network: { bind_address: "0.0.0.0:8080", no_tls: true },
  auth: { handlers: [{ type: "api-key", config: { key1: "secret-1" } }] },
  cloud: { id: "part", secret: "s3cret", app_address: "https://app.example.com", refresh_interval: "30s" },
  agent: {
    version_control: { agent: "stable", "svc-server": "1.2.3" },
    advanced_settings: { debug: true, viam_server_start_timeout_minutes: 5 },
    network_configuration: { hotspot_prefix: "robot", wifi_power_save: false, user_idle_minutes: 3 },
    additional_networks: {
      home: { type: "wifi", ssid: "home", psk: "password1", priority: 10 },
      lab: { type: "wired", ipv4_address: "10.0.0.2/24", ipv4_gateway: "10.0.0.1", ipv4_dns: ["1.1.1.1"] },
    },
    system_configuration: { forward_system_logs: "all,-gdm", os_auto_upgrade_type: "security" },
  },
};

type Path = Array<string | number>;

function allPaths(value: Json, at: Path = []): Path[] {
  const out: Path[] = [at];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...allPaths(v, [...at, i])));
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) out.push(...allPaths(v, [...at, k]));
  return out;
}

const huge = fc.constantFrom(1e308, -1e308, 2 ** 53 + 2, -(2 ** 63), 1e21, 5e-324, 4294967296, -0);
const junk: fc.Arbitrary<Json> = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }) as fc.Arbitrary<Json>,
  huge,
  fc.string(),
  fc.constantFrom<Json>("", "__proto__", "constructor", "rdk:component:motor", "Debug", "all,-", "auto", []),
);

type Mutation =
  | { kind: "delete"; pick: number }
  | { kind: "replace"; pick: number; value: Json }
  | { kind: "insert"; pick: number; key: string; value: Json }
  | { kind: "append"; pick: number; value: Json };

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("delete" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("replace" as const), pick: fc.nat(), value: junk }),
  fc.record({
    kind: fc.constant("insert" as const),
    pick: fc.nat(),
    key: fc.oneof(fc.string(), fc.constantFrom("__proto__", "name", "type", "api", "level", "toString", "")),
    value: junk,
  }),
  fc.record({ kind: fc.constant("append" as const), pick: fc.nat(), value: junk }),
);

export function mutate(config: Json, mutations: Mutation[]): Json {
  let doc = JSON.parse(JSON.stringify(config)) as Json;
  for (const given of mutations) {
    // The values fast-check generated are its own, reused when it replays and shrinks: the damage
    // is done with copies, so no run writes into them (one that did made a value contain itself).
    const m = "value" in given ? { ...given, value: structuredClone(given.value) } : given;
    const paths = allPaths(doc);
    const path = paths[m.pick % paths.length]!;
    if (path.length === 0) {
      if (m.kind === "replace") doc = m.value;
      continue;
    }
    let parent = doc as Record<string | number, Json>;
    for (const segment of path.slice(0, -1)) parent = parent[segment] as Record<string | number, Json>;
    const last = path[path.length - 1]!;
    const target = parent[last];
    if (m.kind === "delete") {
      if (Array.isArray(parent)) parent.splice(last as number, 1);
      else delete parent[last];
    } else if (m.kind === "replace") {
      parent[last] = m.value;
    } else if (m.kind === "insert" && target && typeof target === "object" && !Array.isArray(target)) {
      Object.defineProperty(target, m.key, { value: m.value, enumerable: true, writable: true, configurable: true });
    } else if (m.kind === "append" && Array.isArray(target)) {
      target.push(m.value);
    }
  }
  return doc;
}

// ---- hostile edits of a running machine's configuration ----

/**
 * Damage aimed at what a live machine does with an entry, on top of `mutation`: nesting on both
 * sides of the depth limit, strings on both sides of the size limit, attributes of the wrong
 * type, dependency cycles, models and APIs nobody provides, names used twice.
 */
export type HostileMutation =
  | { kind: "deep"; pick: number; levels: number }
  | { kind: "huge"; pick: number; characters: number }
  | { kind: "wrong-type"; entry: number; key: string; value: Json }
  | { kind: "cycle"; from: number; to: number }
  | { kind: "unknown-model"; entry: number; model: string }
  | { kind: "unknown-api"; entry: number; api: string }
  | { kind: "duplicate"; entry: number };

export const hostileMutation: fc.Arbitrary<HostileMutation> = fc.oneof(
  fc.record({ kind: fc.constant("deep" as const), pick: fc.nat(), levels: fc.oneof(fc.integer({ min: 20, max: 40 }), fc.constantFrom(3_000, 100_000)) }),
  fc.record({ kind: fc.constant("huge" as const), pick: fc.nat(), characters: fc.constantFrom(10_000, 1_000_000, 5_000_000) }),
  fc.record({ kind: fc.constant("wrong-type" as const), entry: fc.nat(), key: fc.constantFrom("readings", "board", "max_rpm", "pins", "attributes"), value: junk }),
  fc.record({ kind: fc.constant("cycle" as const), from: fc.nat(), to: fc.nat() }),
  fc.record({ kind: fc.constant("unknown-model" as const), entry: fc.nat(), model: fc.constantFrom("acme:demo:nothing", "nothing", "rdk:builtin:gpio") }),
  fc.record({ kind: fc.constant("unknown-api" as const), entry: fc.nat(), api: fc.constantFrom("rdk:component:arm", "rdk:service:navigation", "acme:component:thing") }),
  fc.record({ kind: fc.constant("duplicate" as const), entry: fc.nat() }),
);

/** One edit: random damage and hostile damage mixed, or text that is not a configuration at all. */
export type LiveEdit = { kind: "damaged"; mutations: Array<Mutation | HostileMutation> } | { kind: "text"; text: string };

export const liveEdit: fc.Arbitrary<LiveEdit> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ kind: fc.constant("damaged" as const), mutations: fc.array(fc.oneof(mutation, hostileMutation), { minLength: 1, maxLength: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("text" as const), text: fc.oneof(fc.json(), fc.string()) }) },
);

const isHostile = (m: Mutation | HostileMutation): m is HostileMutation =>
  ["deep", "huge", "wrong-type", "cycle", "unknown-model", "unknown-api", "duplicate"].includes(m.kind);

/** The text of `config` after `edit`. */
export function applyLiveEdit(config: Json, edit: LiveEdit): string {
  if (edit.kind === "text") return edit.text;
  let doc = JSON.parse(JSON.stringify(config)) as Json;
  for (const m of edit.mutations) doc = isHostile(m) ? mutateHostile(doc, m) : mutate(doc, [m]);
  return stringifyDeep(doc);
}

const DEEP_MARK = "\u0000nested:";

function entries(doc: Json): Array<Record<string, Json>> {
  const list = doc && typeof doc === "object" && !Array.isArray(doc) ? doc.components : undefined;
  return Array.isArray(list) ? (list.filter((e) => e && typeof e === "object" && !Array.isArray(e)) as Array<Record<string, Json>>) : [];
}

function mutateHostile(doc: Json, m: HostileMutation): Json {
  const list = entries(doc);
  const at = (n: number) => (list.length > 0 ? list[n % list.length] : undefined);
  switch (m.kind) {
    case "deep":
      // A mark that stringifyDeep writes out as the nesting: later mutations never walk it.
      return mutate(doc, [{ kind: "replace", pick: m.pick, value: `${DEEP_MARK}${m.levels}` }]);
    case "huge":
      return mutate(doc, [{ kind: "replace", pick: m.pick, value: "x".repeat(m.characters) }]);
    case "wrong-type": {
      const entry = at(m.entry);
      if (!entry) return doc;
      if (m.key === "attributes") entry.attributes = m.value;
      else if (entry.attributes && typeof entry.attributes === "object" && !Array.isArray(entry.attributes)) entry.attributes[m.key] = m.value;
      return doc;
    }
    case "cycle": {
      const a = at(m.from);
      const b = at(m.to);
      if (!a || !b) return doc;
      for (const [x, y] of [[a, b], [b, a]] as const) x.depends_on = [...(Array.isArray(x.depends_on) ? x.depends_on : []), y.name ?? ""];
      return doc;
    }
    case "unknown-model": {
      const entry = at(m.entry);
      if (entry) entry.model = m.model;
      return doc;
    }
    case "unknown-api": {
      const entry = at(m.entry);
      if (entry) entry.api = m.api;
      return doc;
    }
    case "duplicate": {
      const entry = at(m.entry);
      if (entry && doc && typeof doc === "object" && !Array.isArray(doc) && Array.isArray(doc.components)) doc.components.push(JSON.parse(JSON.stringify(entry)) as Json);
      return doc;
    }
  }
}

/** Arrays and objects taking turns, `levels` deep, written out piece by piece. */
function nestedText(levels: number): string {
  const open: string[] = [];
  const close: string[] = [];
  for (let i = 0; i < levels; i++) {
    open.push(i % 2 === 0 ? "[" : '{"k":');
    close.push(i % 2 === 0 ? "]" : "}");
  }
  return `${open.join("")}1${close.reverse().join("")}`;
}

/** JSON text of a value, with an explicit stack of values and literal pieces; a deep mark becomes its nesting. */
export function stringifyDeep(value: Json): string {
  const out: string[] = [];
  const stack: Array<{ value: Json } | { piece: string }> = [{ value }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if ("piece" in item) {
      out.push(item.piece);
      continue;
    }
    const v = item.value;
    if (Array.isArray(v)) {
      out.push("[");
      stack.push({ piece: "]" });
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push({ value: v[i]! });
        if (i > 0) stack.push({ piece: "," });
      }
    } else if (v !== null && typeof v === "object") {
      out.push("{");
      stack.push({ piece: "}" });
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push({ value: v[keys[i]!]! });
        stack.push({ piece: `${JSON.stringify(keys[i])}:` });
        if (i > 0) stack.push({ piece: "," });
      }
    } else if (typeof v === "string" && v.startsWith(DEEP_MARK)) {
      out.push(nestedText(Number(v.slice(DEEP_MARK.length))));
    } else {
      out.push(JSON.stringify(v) ?? "null");
    }
  }
  return out.join("");
}

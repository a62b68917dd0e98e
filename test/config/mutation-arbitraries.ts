// Random damage done to a valid configuration, for the property tests: keys deleted, values
// replaced by junk (other types, huge numbers, nested garbage), keys inserted, items appended.
import fc from "fast-check";
import type { Json } from "./helpers.js";

export const valid: Json = {
  components: [
    { name: "board", api: "rdk:component:board", model: "fake", attributes: { pins: { led: "12" } } },
    { name: "left", type: "motor", model: "gpio", attributes: { board: "board", max_rpm: 200 }, depends_on: ["board"] },
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
  for (const m of mutations) {
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

// The agent's settings come in layers, later wins key by key: built-in defaults, the
// manufacturer defaults file, the machine configuration's `agent` section, command-line flags,
// environment variables. Unlike the server, which refuses a bad value, the agent must keep a
// device running whatever it is given: a number out of range is clamped to the range, and any
// other value core/config rejects is ignored so the layer below stays; both with a warning naming
// the layer and the key.
import { formatDataPath as formatPath, parseMachineConfig, type AgentConfig } from "../config/index.js";

export interface AgentLayer {
  /** Named in warnings: "manufacturer defaults", "machine config /etc/svc.json", "flags". */
  source: string;
  /** Raw JSON shaped like the configuration's `agent` section; undefined or null: nothing set. */
  agent: unknown;
}

export interface MergedAgentSettings {
  agent: AgentConfig;
  warnings: string[];
}

type Json = Record<string, unknown>;
type Path = (string | number)[];

interface Range {
  min: number;
  max: number;
}

// The numeric bounds of core/config/schema.json (test/agent/settings checks they agree), kept
// here because clamping needs the numbers; every other check is core/config's own.
const minutes: Range = { min: 1, max: 525600 };
const minutesOrZero: Range = { min: 0, max: 525600 };
const journaldLimit: Range = { min: -1, max: 1048576 };

export const AGENT_RANGES: Record<string, Record<string, Range>> = {
  advanced_settings: { viam_server_start_timeout_minutes: minutes },
  network_configuration: {
    device_reboot_after_offline_minutes: minutesOrZero,
    offline_before_starting_hotspot_minutes: minutesOrZero,
    retry_connection_timeout_minutes: minutes,
    user_idle_minutes: minutes,
  },
  system_configuration: {
    logging_journald_runtime_max_use_megabytes: journaldLimit,
    logging_journald_system_max_use_megabytes: journaldLimit,
  },
};

export const NETWORK_RANGES: Record<string, Range> = {
  priority: { min: -999, max: 999 },
  ipv4_route_metric: { min: 0, max: 4294967295 },
};

const sections = ["version_control", "advanced_settings", "network_configuration", "system_configuration"];

export function mergeAgentLayers(layers: readonly AgentLayer[]): MergedAgentSettings {
  const warnings: string[] = [];
  const merged: Json = {};
  for (const layer of layers) {
    const accepted = acceptLayer(layer, warnings);
    if (accepted) mergeInto(merged, accepted);
  }
  const parsed = parseMachineConfig({ agent: merged });
  // Every layer was accepted by the same checks, so the merge parses; the fallback only guards
  // against a layer whose values are fine alone but not together.
  const agent = parsed.config?.agent ?? parseMachineConfig({}).config!.agent;
  return { agent, warnings };
}

/**
 * A merged result as a layer again (to stand in for the layers it came from, such as a cached
 * result when the machine configuration cannot be read): the same JSON, with forward_system_logs
 * written back as the text it was parsed from.
 */
export function agentConfigAsLayer(agent: AgentConfig): Json {
  const layer = JSON.parse(JSON.stringify(agent)) as Json;
  const forwarding = agent.system_configuration.forward_system_logs;
  const items = forwarding.all ? ["all", ...forwarding.exclude.map((name) => `-${name}`)] : forwarding.include;
  (layer.system_configuration as Json).forward_system_logs = items.join(",");
  return layer;
}

/** The layer's values that core/config accepts, clamped into range; null when it sets nothing. */
function acceptLayer(layer: AgentLayer, warnings: string[]): Json | null {
  if (layer.agent === undefined || layer.agent === null) return null;
  let data: unknown;
  try {
    data = JSON.parse(JSON.stringify(layer.agent));
  } catch {
    warnings.push(`${layer.source}: is not JSON data (ignored)`);
    return null;
  }
  if (!isRecord(data)) {
    warnings.push(`${layer.source}: must be an object (ignored)`);
    return null;
  }
  clampRanges(data, layer.source, warnings);
  const known = knownPaths(data);
  for (const issue of parseMachineConfig({ agent: data }).issues) {
    const path = issue.path.replace(/^agent\.?/, "");
    warnings.push(`${layer.source}: ${path || "(section)"}: ${issue.message}`);
    const segments = closestKnown(known, issue.path);
    if (segments && rejects(segments, issue)) remove(data, segments, issue.severity === "error");
  }
  return data;
}

// Which issues drop a value: errors (the schema would have put the default there) and unknown
// keys. forward_system_logs' own item errors leave the rest of the list usable, so only the
// schema's verdict on it ("must be ...") drops it.
function rejects(path: Path, issue: { severity: string; message: string }): boolean {
  if (issue.severity === "warning") return issue.message.startsWith("unknown key");
  if (path[0] === "system_configuration" && path[1] === "forward_system_logs") return issue.message.startsWith("must");
  return true;
}

function remove(data: Json, path: Path, error: boolean): void {
  if (path.length === 0) return;
  // An error inside an additional network drops the whole network: the layer below keeps its own.
  const target = error && path[0] === "additional_networks" && path.length > 2 ? path.slice(0, 2) : path;
  let at: unknown = data;
  for (const segment of target.slice(0, -1)) at = isRecord(at) ? at[segment as string] : undefined;
  if (isRecord(at)) delete at[target[target.length - 1] as string];
}

function clampRanges(data: Json, source: string, warnings: string[]): void {
  const clamp = (holder: Json, key: string, range: Range, path: string) => {
    const value = holder[key];
    if (typeof value !== "number" || !isInteger(value)) return;
    if (value < range.min) {
      warnings.push(`${source}: ${path}: ${value} is below ${range.min}; using ${range.min}`);
      holder[key] = range.min;
    } else if (value > range.max) {
      warnings.push(`${source}: ${path}: ${value} is above ${range.max}; using ${range.max}`);
      holder[key] = range.max;
    }
  };
  for (const section of Object.keys(AGENT_RANGES)) {
    const holder = data[section];
    if (!isRecord(holder)) continue;
    const ranges = AGENT_RANGES[section]!;
    for (const key of Object.keys(ranges)) clamp(holder, key, ranges[key]!, `${section}.${key}`);
  }
  const networks = data.additional_networks;
  if (!isRecord(networks)) return;
  for (const label of Object.keys(networks)) {
    const network = networks[label];
    if (!isRecord(network)) continue;
    for (const key of Object.keys(NETWORK_RANGES)) {
      clamp(network, key, NETWORK_RANGES[key]!, formatPath(["additional_networks", label, key]));
    }
  }
}

// Issue paths come back printed; this maps each printable path of the layer to its segments, so
// a label holding a dot or a quote is still found.
function knownPaths(data: Json): Map<string, Path> {
  const known = new Map<string, Path>();
  const walk = (value: unknown, path: Path, depth: number) => {
    known.set(formatPath(["agent", ...path]), path);
    if (depth === 0 || !isRecord(value)) return;
    for (const key of Object.keys(value)) walk(value[key], [...path, key], depth - 1);
  };
  walk(data, [], 3);
  return known;
}

// Later wins key by key inside the sections; additional networks are whole units keyed by label.
function mergeInto(merged: Json, layer: Json): void {
  for (const section of sections) {
    const values = layer[section];
    if (!isRecord(values)) continue;
    const into = isRecord(merged[section]) ? (merged[section] as Json) : (merged[section] = {} as Json);
    for (const key of Object.keys(values)) into[key] = values[key];
  }
  const networks = layer.additional_networks;
  if (isRecord(networks)) {
    const into = isRecord(merged.additional_networks) ? (merged.additional_networks as Json) : (merged.additional_networks = {} as Json);
    for (const label of Object.keys(networks)) into[label] = networks[label];
  }
}

/** The segments of the longest path of the layer that `printed` is or lies under. */
function closestKnown(known: Map<string, Path>, printed: string): Path | undefined {
  let best: string | undefined;
  for (const key of known.keys()) {
    const under = printed === key || printed.startsWith(`${key}.`) || printed.startsWith(`${key}[`);
    if (under && (best === undefined || key.length > best.length)) best = key;
  }
  return best === undefined ? undefined : known.get(best);
}

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isInteger(value: number): boolean {
  return Number.isFinite(value) && Math.floor(value) === value;
}

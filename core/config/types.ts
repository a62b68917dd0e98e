// The typed machine configuration that parseMachineConfig returns: every default filled in,
// names normalised. Everything downstream (logging, graph, server, agent) reads these types.

export type LogLevel = "debug" | "info" | "warn" | "error";

export interface LogRule {
  pattern: string;
  level: LogLevel;
}

/** A component or service entry. `api` and `model` are always full triplets here. */
export interface ResourceConfig {
  name: string;
  /** `namespace:type:subtype`, e.g. `rdk:component:sensor` (built from `namespace` + `type` when given that way). */
  api: string;
  /** `namespace:family:name`, e.g. `rdk:builtin:fake` (a short name `fake` becomes `rdk:builtin:fake`). */
  model: string;
  attributes: Record<string, unknown>;
  /** Names as written: full (`rdk:component:board/b1`) or simple (`b1`). */
  depends_on: string[];
  /** The resource's own level; beats the `log` rules. */
  log_configuration?: { level: LogLevel };
}

export interface ModuleConfig {
  type: "local" | "registry";
  name: string;
  executable_path: string;
  /** "" when the module has no level of its own. */
  log_level: LogLevel | "";
  env: Record<string, string>;
  module_id: string;
  version: string;
}

export interface MaintenanceConfig {
  /** `<namespace>:component:sensor/<name>` */
  sensor_name: string;
  maintenance_allowed_key: string;
}

export type IssueSeverity = "error" | "warning";

/** One problem found in a configuration, with where it is (`components[2].attributes`). */
export interface ConfigIssue {
  path: string;
  message: string;
  severity: IssueSeverity;
}

// The typed machine configuration that parseMachineConfig returns: every default filled in,
// names normalised. Everything downstream (logging, graph, server, agent) reads these types.
import type { FrameConfig } from "../frame/index.js";

export type LogLevel = "debug" | "info" | "warn" | "error";

export interface LogRule {
  pattern: string;
  level: LogLevel;
}

/** A `global_log_configuration` entry: the level of every resource of an API (and model). */
export interface GlobalLogEntry {
  api: string;
  /** A full model triplet; absent for every model of the API. */
  model?: string;
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
  /** A component's place in the frame system, as written (defaults filled in); services have none. */
  frame?: FrameConfig;
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
  /** How long the module may take to start and answer ready, as written ("5m"). */
  startup_timeout: string;
  /** `startup_timeout` in milliseconds. */
  startup_timeout_ms: number;
  /** How long a registry package's first-run script may take ("1h"). */
  first_run_timeout: string;
  first_run_timeout_ms: number;
}

/** The signals a process may be stopped with. */
export type ProcessStopSignal = "SIGHUP" | "SIGINT" | "SIGQUIT" | "SIGABRT" | "SIGKILL" | "SIGTERM";

/** A program svc-server runs beside the machine (Viam's `processes`). */
export interface ProcessConfig {
  id: string;
  /** The program: a path, or a name looked up in PATH. */
  name: string;
  args: string[];
  /** "" for svc-server's own working directory. */
  cwd: string;
  /** Runs once at load instead of being kept running. */
  one_shot: boolean;
  /** Logs its stdout and stderr line by line. */
  log: boolean;
  env: Record<string, string>;
  /** As written ("" when not); `stop_signal_name` is the signal it names. */
  stop_signal: string;
  stop_signal_name: ProcessStopSignal;
  /** As written ("10s"); `stop_timeout_ms` in milliseconds. */
  stop_timeout: string;
  stop_timeout_ms: number;
}

/** Another part of the machine (svc-server or viam-server) joined to this one (Viam's `remotes`). */
export interface RemoteConfig {
  /** Unique among the remotes; its resources are named `<name>:<resource>` here. */
  name: string;
  /** As written: "pi.local:8080", "[::1]:8080", "https://pi.example.com". */
  address: string;
  /** Where it is dialled: "http://host:port" for plaintext HTTP/2 (h2c), "https://host:port" for TLS. */
  url: string;
  /** How svc-server signs in to it; absent when it takes calls without credentials. */
  auth?: RemoteAuth;
  /** Put before the names of its resources here ("" for none), so they cannot clash with others. */
  prefix: string;
  /** Plaintext for an address without a scheme; an `http://` or `https://` address says for itself. */
  insecure: boolean;
  /** How often its resources are listed again, as written ("10s"); `_ms` in milliseconds. */
  connection_check_interval: string;
  connection_check_interval_ms: number;
  /** The first wait before dialling it again once it is unreachable ("1s"); waits grow from it. */
  reconnect_interval: string;
  reconnect_interval_ms: number;
}

export interface RemoteAuth {
  /** Who signs in: the API key's id ("" lets the remote decide). */
  entity: string;
  credentials: { type: "api-key"; payload: string };
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

export interface NetworkConfig {
  /** `host:port` the server listens on. */
  bind_address: string;
  no_tls: boolean;
  /** Both set, or both "". */
  tls_cert_file: string;
  tls_key_file: string;
  /** The machine's unique name, "" when it has none; one of the names it answers to. */
  fqdn: string;
  /** Its name on the local network, "" when it has none; one of the names it answers to. */
  local_fqdn: string;
  /** Host names (or addresses) the machine answers to beyond its own, when it has no API keys. */
  allowed_hosts: string[];
  /** Origins ("https://app.example.com") whose pages may call a machine without API keys. */
  cors_origins: string[];
  /** Largest message the API port takes or sends, in bytes (32 MiB); read once at start. */
  max_message_bytes: number;
  /** Client sessions: a session ends when no heartbeat comes within the window ("2s"). */
  sessions: { heartbeat_window: string; heartbeat_window_ms: number };
}

export interface AuthHandlerConfig {
  type: "api-key";
  /** Key id -> key (Viam's `keys` list of ids is checked and left out). */
  config: Record<string, string>;
  /**
   * Keys written without an id (Viam's legacy `key`, or `keys` holding keys rather than ids);
   * absent when there are none. Each authenticates an entity that names this machine.
   */
  legacy_keys?: string[];
}

export interface AuthConfig {
  handlers: AuthHandlerConfig[];
}

export interface CloudConfig {
  /** The part's id. */
  id: string;
  /** The part's secret (Viam's older robot-secret credential); a key is preferred. */
  secret?: string;
  /** The part's API key: how svc-server and svc-agent sign in to svc-cloud. */
  api_key?: { id: string; key: string };
  /** "" means the built-in cloud address. */
  app_address: string;
  /** As written, e.g. "10s". */
  refresh_interval: string;
  /** `refresh_interval` in milliseconds. */
  refresh_interval_ms: number;
}

/** "stable", "dev", a semantic version, or an http(s):// or file:// URL of an executable. */
export type VersionSpec = string;

export interface VersionControlConfig {
  agent: VersionSpec;
  "svc-server": VersionSpec;
}

export interface AdvancedSettings {
  debug: boolean;
  disable_network_configuration: boolean;
  disable_system_configuration: boolean;
  disable_viam_server: boolean;
  viam_server_start_timeout_minutes: number;
  wait_for_update_check: boolean;
}

export interface NetworkConfiguration {
  device_reboot_after_offline_minutes: number;
  disable_captive_portal_redirect: boolean;
  fragment_id: string;
  /** "" means the first 802.11 device found. */
  hotspot_interface: string;
  hotspot_password: string;
  hotspot_prefix: string;
  manufacturer: string;
  model: string;
  offline_before_starting_hotspot_minutes: number;
  retry_connection_timeout_minutes: number;
  turn_on_hotspot_if_wifi_has_no_internet: boolean;
  user_idle_minutes: number;
  /** null: leave the system default. */
  wifi_power_save: boolean | null;
}

export interface AdditionalNetwork {
  type: "wifi" | "wired";
  interface: string;
  /** "" for wired networks. */
  ssid: string;
  /** "" for wired and open networks. */
  psk: string;
  /** -999..999, higher wins. */
  priority: number;
  /** "auto" or CIDR, e.g. "192.168.1.20/24". */
  ipv4_address: string;
  ipv4_gateway: string;
  ipv4_dns: string[];
  /** Never 0 here: a written 0 becomes 100 (wired) or 600 (wifi). */
  ipv4_route_metric: number;
}

/** `forward_system_logs` parsed: `all` forwards everything except `exclude`; otherwise only `include`. */
export interface SystemLogForwarding {
  all: boolean;
  include: string[];
  exclude: string[];
}

export interface SystemConfiguration {
  forward_system_logs: SystemLogForwarding;
  /** MB, or -1 to leave journald's own limit. */
  logging_journald_runtime_max_use_megabytes: number;
  logging_journald_system_max_use_megabytes: number;
  os_auto_upgrade_type: "all" | "security" | "disable" | "";
}

export interface AgentConfig {
  version_control: VersionControlConfig;
  advanced_settings: AdvancedSettings;
  network_configuration: NetworkConfiguration;
  /** Label -> network. */
  additional_networks: Record<string, AdditionalNetwork>;
  system_configuration: SystemConfiguration;
}

/** The whole machine configuration, every default filled in. */
export interface MachineConfig {
  components: ResourceConfig[];
  services: ResourceConfig[];
  modules: ModuleConfig[];
  processes: ProcessConfig[];
  /** Other parts of the machine joined to this one. */
  remotes: RemoteConfig[];
  /** Absent when no maintenance window is configured. */
  maintenance?: MaintenanceConfig;
  log: LogRule[];
  global_log_configuration: GlobalLogEntry[];
  debug: boolean;
  disable_log_deduplication: boolean;
  /** Start only when every component and service entry is usable; otherwise the configuration is refused whole. */
  disable_partial_start: boolean;
  network: NetworkConfig;
  auth: AuthConfig;
  /** Absent when the machine has no cloud credentials. */
  cloud?: CloudConfig;
  agent: AgentConfig;
}

export interface ParsedMachineConfig {
  /** null only when the input is not JSON or not an object. */
  config: MachineConfig | null;
  /** Every problem found, errors and warnings, in document order. */
  issues: ConfigIssue[];
}

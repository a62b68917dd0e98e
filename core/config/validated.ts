// The shape of configuration data once it conforms to core/config/schema.json (defaults filled
// in by the validator), before the checks and normalisation that the schema cannot express.
import type {
  AdditionalNetwork,
  AdvancedSettings,
  LogLevel,
  GlobalLogEntry,
  LogRule,
  MaintenanceConfig,
  ModuleConfig,
  ProcessConfig,
  RemoteAuth,
  RemoteConfig,
  NetworkConfig,
  NetworkConfiguration,
  SystemConfiguration,
  VersionControlConfig,
} from "./types.js";
import type { FrameConfig } from "../frame/index.js";

export interface ValidatedResource {
  name: string;
  api?: string;
  namespace?: string;
  type?: string;
  model?: string;
  attributes: Record<string, unknown>;
  depends_on: string[];
  log_configuration?: { level: LogLevel };
  frame?: FrameConfig;
}

/** A process entry as written; `username` is Viam's, refused here (see processes.ts). */
export type ValidatedProcess = Omit<ProcessConfig, "stop_signal_name" | "stop_timeout_ms"> & { username: string };

/** A remote entry as written, defaults filled in, before its address and durations are read. */
export type ValidatedRemote = Omit<RemoteConfig, "url" | "auth" | "connection_check_interval_ms" | "reconnect_interval_ms"> & {
  auth?: { entity: string; credentials?: RemoteAuth["credentials"] };
};

export interface ValidatedCloud {
  id: string;
  secret?: string;
  api_key?: { id: string; key: string };
  app_address: string;
  refresh_interval: string;
}

export interface ValidatedAgent {
  version_control: VersionControlConfig;
  advanced_settings: AdvancedSettings;
  network_configuration: NetworkConfiguration;
  additional_networks: Record<string, AdditionalNetwork>;
  system_configuration: Omit<SystemConfiguration, "forward_system_logs"> & { forward_system_logs: string };
}

/** The auth section as written in Viam's format; `buildAuth` turns it into an AuthConfig or refuses it. */
export interface ValidatedAuth {
  handlers: Array<{ type: "api-key"; config: { key?: string; keys?: string[]; [keyId: string]: string | string[] | undefined } }>;
  tls_auth_entities?: string[];
  external_auth_config?: unknown;
}

export interface ValidatedConfig {
  components: ValidatedResource[];
  services: ValidatedResource[];
  modules: Omit<ModuleConfig, "startup_timeout_ms" | "first_run_timeout_ms">[];
  processes: ValidatedProcess[];
  remotes: ValidatedRemote[];
  maintenance?: MaintenanceConfig;
  log: LogRule[];
  debug: boolean;
  disable_log_deduplication: boolean;
  global_log_configuration: GlobalLogEntry[];
  disable_partial_start: boolean;
  network: Omit<NetworkConfig, "sessions"> & { sessions: { heartbeat_window: string } };
  auth: ValidatedAuth;
  cloud?: ValidatedCloud;
  agent: ValidatedAgent;
}

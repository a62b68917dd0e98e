// svc's config, key by key, against Viam's RobotConfig proto (app/v1/robot.proto): every key svc's
// schema knows, and the keys of Viam's format svc accepts without acting on, with the field each
// becomes or the reason it has none. docs/cloud.md lists the keys without a field.
import { stopSignalNamed } from "../../../core/index.js";
import { frameTable } from "./robot-config-frame.js";
import { duration, listOf, notServable, object, same, type Mapper, type Table } from "./proto-json-mapping.js";

const logConfiguration: Table = { level: same("level") };
const serviceConfig: Table = { type: same("type"), attributes: same("attributes") };
const validationStatus: Table = { error: same("error") };

const resourceCommon: Table = {
  name: same("name"),
  namespace: same("namespace"),
  type: same("type"),
  model: same("model"),
  api: same("api"),
  attributes: same("attributes"),
  depends_on: same("depends_on"),
  log_configuration: object("log_configuration", logConfiguration),
  service_configs: listOf("service_configs", serviceConfig),
};

export const componentTable: Table = { ...resourceCommon, frame: object("frame", frameTable) };

export const serviceTable: Table = {
  ...resourceCommon,
  frame: { none: "Viam's ServiceConfig has no frame (svc-server places no service in the frame system either)" },
};

export const moduleTable: Table = {
  name: same("name"),
  type: same("type"),
  executable_path: same("path"),
  log_level: same("log_level"),
  module_id: same("module_id"),
  env: same("env"),
  first_run_timeout: duration("first_run_timeout"),
  status: object("status", validationStatus),
  version: { none: "Viam's ModuleConfig has no version: Viam sends a registry module's version as a package" },
  startup_timeout: { none: "Viam's ModuleConfig has no start-up timeout (viam-server takes it from its environment)" },
};

/** A stop signal by any of its spellings, as the signal's number the proto holds. */
const SIGNAL_NUMBERS = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGABRT: 6, SIGKILL: 9, SIGTERM: 15 } as const;

export const processTable: Table = {
  id: same("id"),
  name: same("name"),
  args: same("args"),
  cwd: same("cwd"),
  one_shot: same("one_shot"),
  log: same("log"),
  env: same("env"),
  username: same("username"),
  stop_timeout: duration("stop_timeout"),
  stop_signal: {
    to: "stop_signal",
    map: (value, at) => {
      if (value === "") return 0;
      const signal = typeof value === "string" ? stopSignalNamed(value) : undefined;
      if (signal === undefined) throw notServable(at, `is not a stop signal (found ${JSON.stringify(value)})`);
      return SIGNAL_NUMBERS[signal];
    },
  },
};

const networkTable: Table = {
  fqdn: same("fqdn"),
  bind_address: same("bind_address"),
  tls_cert_file: same("tls_cert_file"),
  tls_key_file: same("tls_key_file"),
  no_tls: same("no_tls"),
  sessions: object("sessions", { heartbeat_window: duration("heartbeat_window") }),
  traffic_tunnel_endpoints: listOf("traffic_tunnel_endpoints", { port: same("port"), connection_timeout: duration("connection_timeout") }),
  local_fqdn: { none: "svc-cloud fills the part's local_fqdn in `cloud`; NetworkConfig has no field of its own for it" },
  allowed_hosts: { none: "an svc-server setting Viam's NetworkConfig has no field for" },
  cors_origins: { none: "an svc-server setting Viam's NetworkConfig has no field for" },
  max_message_bytes: { none: "an svc-server setting Viam's NetworkConfig has no field for" },
};

const CREDENTIAL_TYPES: Record<string, string> = {
  "api-key": "CREDENTIALS_TYPE_API_KEY",
  "robot-secret": "CREDENTIALS_TYPE_ROBOT_SECRET",
  "robot-location-secret": "CREDENTIALS_TYPE_ROBOT_LOCATION_SECRET",
};

const credentialType: Mapper = (value, at) => {
  const type = typeof value === "string" && Object.hasOwn(CREDENTIAL_TYPES, value) ? CREDENTIAL_TYPES[value] : undefined;
  if (type === undefined) throw notServable(at, `is not a credential type Viam knows (found ${JSON.stringify(value)})`);
  return type;
};

const authTable: Table = {
  handlers: listOf("handlers", { type: { to: "type", map: credentialType }, config: same("config") }),
  tls_auth_entities: same("tls_auth_entities"),
  external_auth_config: object("external_auth_config", { jwks: object("jwks", { json: same("json") }) }),
};

const maintenanceTable: Table = {
  maintenance_allowed_key: same("maintenance_allowed_key"),
  // "rdk:component:sensor/name" is a ResourceName of four parts in the proto.
  sensor_name: {
    to: "sensor_name",
    map: (value, at) => {
      const match = typeof value === "string" ? /^([^:/]+):([^:/]+):([^:/]+)\/(.+)$/.exec(value) : null;
      if (match === null) throw notServable(at, `must be shaped "<namespace>:component:sensor/<name>" (found ${JSON.stringify(value)})`);
      return { namespace: match[1], type: match[2], subtype: match[3], name: match[4] };
    },
  },
};

const remoteTable: Table = {
  name: same("name"),
  address: same("address"),
  frame: object("frame", frameTable),
  auth: object("auth", {
    entity: same("entity"),
    credentials: object("credentials", { type: { to: "type", map: credentialType }, payload: same("payload") }),
  }),
  managed_by: same("managed_by"),
  insecure: same("insecure"),
  connection_check_interval: duration("connection_check_interval"),
  reconnect_interval: duration("reconnect_interval"),
  service_configs: listOf("service_configs", serviceConfig),
  secret: same("secret"),
  prefix: same("prefix"),
};

const packageTable: Table = { name: same("name"), package: same("package"), version: same("version"), type: same("type"), status: object("status", validationStatus) };

const jobTable: Table = {
  name: same("name"),
  schedule: same("schedule"),
  resource: same("resource"),
  method: same("method"),
  command: same("command"),
  log_configuration: object("log_configuration", logConfiguration),
};

const tracingTable: Table = { enabled: same("enabled"), disk: same("disk"), console: same("console"), otlp_endpoint: same("otlp_endpoint") };

/** A whole config's top level. */
export const machineTable: Table = {
  components: listOf("components", componentTable),
  services: listOf("services", serviceTable),
  modules: listOf("modules", moduleTable),
  processes: listOf("processes", processTable),
  remotes: listOf("remotes", remoteTable),
  packages: listOf("packages", packageTable),
  jobs: listOf("jobs", jobTable),
  maintenance: object("maintenance", maintenanceTable),
  log: listOf("log", { pattern: same("pattern"), level: same("level") }),
  network: object("network", networkTable),
  auth: object("auth", authTable),
  tracing: object("tracing", tracingTable),
  overwrite_fragment_status: listOf("overwrite_fragment_status", validationStatus),
  debug: same("debug"),
  disable_partial_start: same("disable_partial_start"),
  disable_log_deduplication: same("disable_log_deduplication"),
  enable_web_profile: same("enable_web_profile"),
  global_log_configuration: { none: "Viam's RobotConfig has no field for it (viam-server reads it from the config file only)" },
  agent: { none: "the agent's settings are served by AgentDeviceService.DeviceAgentConfig, not in RobotConfig" },
  package_path: { none: "Viam's RobotConfig has no field for it" },
  fragments: { none: "fragments are merged into the config before it is served" },
  fragment_mods: { none: "fragments are merged into the config before it is served" },
  cloud: { none: "svc-cloud fills `cloud` from the part's own record; the part's key is never in it" },
  revision: { none: "svc-cloud sets `revision` to the part's revision" },
};

/** The tables by the schema definition they answer for, so a test can hold each to the schema. */
export const tablesBySchemaDefinition: Readonly<Record<string, Table>> = {
  machine: machineTable,
  resource: componentTable,
  module: moduleTable,
  process: processTable,
  frame: frameTable,
  logRule: { pattern: same("pattern"), level: same("level") },
  maintenance: maintenanceTable,
  network: networkTable,
  auth: authTable,
  authHandler: { type: same("type"), config: same("config") },
};

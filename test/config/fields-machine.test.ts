// Every field of the machine configuration outside `agent`: default, valid and invalid values.
import { expect, it } from "vitest";
import { parse } from "./helpers.js";
import {
  bool, checkFields, text, type FieldRow,
  withComponent, withModule, withProcess, withRule, withHandler, withCloud, withKeyCloud, withMaintenance, withWifi,
  nameShape, levelShape, sensorShape, modelShape, signalShape,
} from "./field-table.js";

const rows: FieldRow[] = [
  // top level
  bool("debug"),
  bool("disable_log_deduplication"),
  bool("disable_partial_start"),
  ...["components", "services", "modules", "processes", "log", "global_log_configuration"].map(
    (path): FieldRow => ({ path, absent: [], valid: [[]], invalid: [[{}, "must be an array (found an object)"]] }),
  ),
  {
    path: "network.bind_address",
    absent: "localhost:8080",
    valid: ["0.0.0.0:9090", ":8080", "[::1]:8080", "robot.local:443"],
    invalid: [
      ["8080", 'must be "<host>:<port>" or ":<port>" (found "8080")'],
      [8080, 'must be "<host>:<port>" or ":<port>" (found 8080)'],
      ["localhost:70000", "must have a port from 0 to 65535 (found 70000)"],
    ],
  },
  bool("network.no_tls"),
  // (set alone, either is an error: see behaviour.test.ts)
  // A TLS setting that cannot be used as written refuses the whole file: no plaintext instead.
  { ...text("network.tls_cert_file", "", [""]), refusesWhole: true },
  { ...text("network.tls_key_file", "", [""]), refusesWhole: true },
  {
    path: "network.max_message_bytes",
    absent: 33554432,
    valid: [65536, 1073741824],
    invalid: [
      [1024, "must be a size in bytes from 65536 (64 KiB) to 1073741824 (1 GiB) (found 1024)"],
      ["32MB", 'must be a size in bytes from 65536 (64 KiB) to 1073741824 (1 GiB) (found "32MB")'],
    ],
  },
  {
    path: "network.sessions.heartbeat_window",
    absent: "2s",
    valid: ["30ms", "500ms", "1m"],
    invalid: [
      ["5ms", 'must be a duration from "30ms" to "1m", such as "2s" (found "5ms")'],
      ["2m", 'must be a duration from "30ms" to "1m", such as "2s" (found "2m")'],
      ["2", 'must be a duration from "30ms" to "1m", such as "2s" (found "2")'],
      [2, 'must be a duration from "30ms" to "1m", such as "2s" (found 2)'],
    ],
  },
  {
    path: "network",
    absent: {
      bind_address: "localhost:8080", no_tls: false, tls_cert_file: "", tls_key_file: "",
      fqdn: "", local_fqdn: "", allowed_hosts: [], cors_origins: [], max_message_bytes: 33554432,
      sessions: { heartbeat_window: "2s", heartbeat_window_ms: 2000 },
    },
    valid: [],
    invalid: [["localhost", 'must be an object (found "localhost")']],
  },
  {
    path: "auth.handlers",
    absent: [],
    valid: [[{ type: "api-key", config: { key1: "secret-1", key2: "secret-2" } }]],
    invalid: [["api-key", 'must be an array (found "api-key")']],
    refusesWhole: true,
  },
  {
    path: "auth.handlers[0].type",
    base: withHandler,
    required: 'is required: "api-key"',
    valid: ["api-key"],
    invalid: [["password", 'must be "api-key" (found "password")']],
    entry: "auth.handlers[0]",
    refusesWhole: true,
  },
  {
    path: "auth.handlers[0].config",
    base: withHandler,
    required: "is required",
    valid: [{ a: "first-key", b: "second-key" }],
    invalid: [
      [["k"], "must be an object (found an array)"],
      [{ key1: 5 }, "must be a non-empty key (found a number value)", "auth.handlers[0].config.key1"],
      [{ key1: " " }, "must be a non-empty key (found a string of 1 characters)", "auth.handlers[0].config.key1"],
    ],
    entry: "auth.handlers[0]",
    refusesWhole: true,
  },
  // cloud
  {
    path: "cloud.id",
    base: withCloud,
    required: "is required: a non-empty string",
    valid: ["0b6c2e5e-part"],
    invalid: [
      ["", 'must be a non-empty string (found "")'],
      [7, "must be a non-empty string (found 7)"],
    ],
    entry: "cloud",
  },
  {
    path: "cloud.secret",
    base: withKeyCloud,
    absent: undefined,
    valid: ["another-secret"],
    invalid: [["", "must be a non-empty string (found a string of 0 characters)"]],
    entry: "cloud",
  },
  {
    path: "cloud.api_key.id",
    base: withKeyCloud,
    required: "is required: a non-empty string",
    valid: ["0b6c2e5e-key"],
    invalid: [["", 'must be a non-empty string (found "")']],
    entry: "cloud",
  },
  {
    path: "cloud.api_key.key",
    base: withKeyCloud,
    required: "is required: a non-empty string",
    valid: ["another-key"],
    invalid: [["", "must be a non-empty string (found a string of 0 characters)"]],
    entry: "cloud",
  },
  text("cloud.app_address", "", ["https://app.example.com:443"], withCloud, "cloud"),
  {
    path: "cloud.refresh_interval",
    base: withCloud,
    absent: "10s",
    valid: ["1s", "1m", "1m30s", "2.5s", "1h"],
    invalid: [
      ["10", 'must be a duration such as "10s", "1m30s" or "500ms" (found "10")'],
      ["100ms", 'must be at least "1s" (found "100ms")'],
    ],
    entry: "cloud",
  },
  // maintenance
  {
    path: "maintenance.sensor_name",
    base: withMaintenance,
    required: `is required: ${sensorShape}`,
    valid: ["acme:component:sensor/door-1"],
    invalid: [
      ["gate", `must be ${sensorShape} (found "gate")`],
      ["rdk:component:motor/m", `must be ${sensorShape} (found "rdk:component:motor/m")`],
      ["rdk:component:sensor/", `must be ${sensorShape} (found "rdk:component:sensor/")`],
    ],
    entry: "maintenance",
  },
  {
    path: "maintenance.maintenance_allowed_key",
    base: withMaintenance,
    required: "is required: a non-empty string",
    valid: ["safe_to_update"],
    invalid: [
      ["", 'must be a non-empty string (found "")'],
      [true, "must be a non-empty string (found true)"],
    ],
    entry: "maintenance",
  },
  // components (services share the entry's schema)
  {
    path: "components[0].name",
    base: withComponent,
    required: `is required: ${nameShape}`,
    valid: ["motor-1", "left_wheel"],
    invalid: [
      ["left wheel", `must be ${nameShape} (found "left wheel")`],
      ["", `must be ${nameShape} (found "")`],
      [3, `must be ${nameShape} (found 3)`],
    ],
    entry: "components[0]",
  },
  {
    path: "components[0].api",
    base: withComponent,
    required: 'is required: an API such as "rdk:component:sensor", or a "type" such as "sensor"',
    valid: ["rdk:component:motor", "acme:component:wheel"],
    invalid: [
      ["motor", 'must be an API such as "rdk:component:sensor" ("<namespace>:component|service:<type>") (found "motor")'],
      ["rdk:service:motion", 'must be a component API such as "rdk:component:sensor" (found "rdk:service:motion")'],
    ],
    entry: "components[0]",
  },
  {
    path: "components[0].model",
    base: withComponent,
    required: `is required: ${modelShape}`,
    valid: ["rdk:builtin:fake", "acme:demo:wheel"],
    invalid: [
      ["acme:wheel", `must be ${modelShape} (found "acme:wheel")`],
      [["fake"], `must be ${modelShape} (found an array)`],
    ],
    entry: "components[0]",
  },
  {
    path: "components[0].attributes",
    base: withComponent,
    absent: {},
    valid: [{ pin: 3, nested: { list: [1, "two", null] } }],
    invalid: [[[1], "must be an object (found an array)"]],
    entry: "components[0]",
  },
  {
    path: "components[0].depends_on",
    base: withComponent,
    absent: [],
    valid: [["board", "rdk:component:board/b1", "remote1:arm"]],
    invalid: [
      ["board", 'must be an array (found "board")'],
      [["two words"], 'must be a resource name such as "b1" or "rdk:component:board/b1" (found "two words")', "components[0].depends_on[0]"],
    ],
    entry: "components[0]",
  },
  {
    path: "components[0].log_configuration",
    base: withComponent,
    absent: undefined,
    valid: [{ level: "debug" }, { level: "error" }],
    invalid: [
      [{ level: "loud" }, `must be ${levelShape} (found "loud")`, "components[0].log_configuration.level"],
      [{}, `is required: ${levelShape}`, "components[0].log_configuration.level"],
      ["debug", 'must be an object (found "debug")'],
    ],
    entry: "components[0]",
  },
  // modules
  {
    path: "modules[0].type",
    base: withModule,
    absent: "local",
    valid: ["local"],
    invalid: [["npm", 'must be "local" or "registry" (found "npm")']],
    entry: "modules[0]",
  },
  {
    path: "modules[0].name",
    base: withModule,
    required: `is required: ${nameShape}`,
    valid: ["camera-module"],
    invalid: [["my module", `must be ${nameShape} (found "my module")`]],
    entry: "modules[0]",
  },
  {
    path: "modules[0].executable_path",
    base: withModule,
    required: "is required for a local module: the path of its executable",
    valid: ["./bin/module", "/usr/local/bin/mod"],
    invalid: [[1, "must be a string (found 1)"]],
    entry: "modules[0]",
  },
  {
    path: "modules[0].log_level",
    base: withModule,
    absent: "",
    valid: ["debug", "error", ""],
    invalid: [["trace", 'must be one of "debug", "info", "warn", "error" (or "" for none) (found "trace")']],
    entry: "modules[0]",
  },
  {
    path: "modules[0].env",
    base: withModule,
    absent: {},
    valid: [{ PATH: "/usr/bin", EMPTY: "" }],
    invalid: [
      [{ PORT: 8080 }, "must be a string (found 8080)", "modules[0].env.PORT"],
      ["A=1", 'must be an object (found "A=1")'],
    ],
    entry: "modules[0]",
  },
  {
    path: "modules[0].module_id",
    base: withModule,
    absent: "",
    valid: ["acme:camera"],
    invalid: [["acme", 'must be a registry id shaped "<namespace>:<name>" (found "acme")']],
    entry: "modules[0]",
  },
  text("modules[0].version", "", ["1.2.3"], withModule, "modules[0]"),
  // processes
  {
    path: "processes[0].id",
    base: withProcess,
    required: "is required: a non-empty string",
    valid: ["setup", "camera streamer"],
    invalid: [["", 'must be a non-empty string (found "")'], [3, "must be a non-empty string (found 3)"]],
    entry: "processes[0]",
  },
  {
    path: "processes[0].name",
    base: withProcess,
    required: "is required: a program's name or path",
    valid: ["sh", "/usr/bin/env"],
    invalid: [[" ", `must be a program's name or path (found " ")`]],
    entry: "processes[0]",
  },
  {
    path: "processes[0].args",
    base: withProcess,
    absent: [],
    valid: [["-c", "echo hi"]],
    invalid: [[["-n", 5], "must be a string (found 5)", "processes[0].args[1]"], ["-c", 'must be an array (found "-c")']],
    entry: "processes[0]",
  },
  text("processes[0].cwd", "", ["/tmp"], withProcess, "processes[0]"),
  { ...bool("processes[0].one_shot", withProcess), entry: "processes[0]" },
  { ...bool("processes[0].log", withProcess), entry: "processes[0]" },
  {
    path: "processes[0].env",
    base: withProcess,
    absent: {},
    valid: [{ MODE: "test", EMPTY: "" }],
    invalid: [[{ PORT: 8080 }, "must be a string (found 8080)", "processes[0].env.PORT"]],
    entry: "processes[0]",
  },
  {
    path: "processes[0].username",
    base: withProcess,
    absent: undefined,
    valid: [],
    invalid: [["robot", "is not supported: a process runs as svc-server's own user (leave it out, or run svc-server as that user)"]],
    entry: "processes[0]",
  },
  {
    path: "processes[0].stop_signal",
    base: withProcess,
    absent: "",
    valid: ["SIGINT", "TERM", "hangup", "9", ""],
    invalid: [["SIGSTOP", `must be ${signalShape} (found "SIGSTOP")`]],
    entry: "processes[0]",
  },
  {
    path: "processes[0].stop_timeout",
    base: withProcess,
    absent: "10s",
    valid: ["100ms", "1m30s"],
    invalid: [
      ["50ms", 'must be a duration of at least "100ms", such as "10s" or "500ms" (found "50ms")'],
      ["ten", 'must be a duration of at least "100ms", such as "10s" or "500ms" (found "ten")'],
      [10, 'must be a duration such as "10s" or "500ms" (found 10)'],
    ],
    entry: "processes[0]",
  },
  // log rules
  {
    path: "log[0].pattern",
    base: withRule,
    required: "is required",
    valid: ["rdk.*", "rdk.resource_manager.rdk:component:motor/*"],
    invalid: [
      ["a b", 'may contain only letters, digits, "_", "-", ".", ":", "/", "@" and "*" (found " ")'],
      ["", "must not be empty"],
      [5, "must be a string (found 5)"],
    ],
    entry: "log[0]",
  },
  {
    path: "log[0].level",
    base: withRule,
    required: `is required: ${levelShape}`,
    valid: ["debug", "info", "warn", "error"],
    invalid: [["trace", `must be ${levelShape} (found "trace")`]],
    entry: "log[0]",
  },
];

checkFields("every machine configuration field", rows);

it("uses bases that are valid on their own", () => {
  for (const base of [withComponent, withModule, withRule, withHandler, withCloud, withKeyCloud, withMaintenance, withWifi]) {
    expect(parse(base).issues).toEqual([]);
  }
});

it("refuses a cloud section without the part's credentials, and never echoes the key", () => {
  const { config, issues } = parse({ cloud: { id: "part-1" } });
  expect(config?.cloud).toBeUndefined();
  expect(issues).toContainEqual({ severity: "error", path: "cloud", message: `needs the part's credentials: "api_key" ({"id", "key"}) or "secret"` });
  const typed = parse({ cloud: { id: "part-1", api_key: { id: "key-1", key: 42 } } });
  expect(JSON.stringify(typed.issues)).not.toContain("42");
});

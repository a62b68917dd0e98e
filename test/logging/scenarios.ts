// Log scenarios shared by the rule and de-duplication tests and by the XS comparison: each is
// plain JSON, run by runLogScenario (log-scenario.ts) on a manual clock.
import type { LogScenarioInput } from "./log-scenario.js";

const motorLeft = "rdk.resource_manager.rdk:component:motor/left";
const motorRight = "rdk.resource_manager.rdk:component:motor/right";
const boardB1 = "rdk.resource_manager.rdk:component:board/b1";

export const ruleScenarios = {
  lastMatchWins: {
    settings: {
      rules: [
        { pattern: "rdk.*", level: "debug" },
        { pattern: "rdk.resource_manager.rdk:component:motor/*", level: "error" },
        { pattern: "svc.networking", level: "warn" },
        { pattern: "svc.*", level: "debug" },
      ],
    },
    steps: [{ levels: [motorLeft, boardB1, "svc.networking", "svc.modmanager", "other"] }],
  },
  logConfigurationBeatsRules: {
    settings: {
      rules: [{ pattern: "rdk.resource_manager.*", level: "error" }],
      resources: [
        { api: "rdk:component:motor", name: "left", log_configuration: { level: "Debug" } },
        { api: "rdk:component:motor", name: "right" },
      ],
    },
    steps: [
      { levels: [motorLeft, motorRight, `${motorLeft} > encoder`, `${motorRight} > encoder`] },
      { log: motorLeft, level: "debug", message: "left at debug" },
      { log: motorRight, level: "warn", message: "right warn is below error" },
      { log: motorRight, level: "error", message: "right error" },
    ],
  },
  globalLevels: {
    settings: {
      rules: [{ pattern: "rdk.resource_manager.rdk:component:motor/right", level: "error" }],
      globalLevels: [
        { api: "rdk:component:motor", model: "rdk:builtin:gpio", level: "warn" },
        { api: "rdk:component:motor", level: "debug" },
        { api: "rdk:component:board", level: "Verbose" },
      ],
      resources: [
        { api: "rdk:component:motor", name: "left", model: "rdk:builtin:fake" },
        { api: "rdk:component:motor", name: "right", model: "rdk:builtin:fake" },
        { api: "rdk:component:motor", name: "pwm", model: "rdk:builtin:gpio" },
        { api: "rdk:component:motor", name: "own", model: "rdk:builtin:gpio", log_configuration: { level: "error" } },
        { api: "rdk:component:board", name: "b1", model: "rdk:builtin:fake" },
      ],
    },
    steps: [
      {
        levels: [
          motorLeft,
          motorRight,
          "rdk.resource_manager.rdk:component:motor/pwm",
          "rdk.resource_manager.rdk:component:motor/own",
          `${motorLeft} > encoder`,
          boardB1,
        ],
      },
      { log: motorLeft, level: "debug", message: "left at debug from its kind" },
    ],
  },
  debugBeatsEverything: {
    settings: {
      debug: true,
      rules: [{ pattern: "*", level: "error" }],
      resources: [{ api: "rdk:component:motor", name: "left", log_configuration: { level: "warn" } }],
      modules: [{ name: "arm-module", log_level: "warn" }, { name: "cam-module", log_level: "" }],
    },
    steps: [
      { levels: [motorLeft, "svc.networking", "stderr:arm-module"] },
      { moduleLevels: ["arm-module", "cam-module", "not-configured"] },
      { log: "svc.networking", level: "debug", message: "visible under debug" },
    ],
  },
  debugFlagBeatsConfiguration: {
    debug: true,
    settings: { debug: false, rules: [{ pattern: "svc.*", level: "error" }] },
    steps: [{ levels: ["svc.networking"] }, { moduleLevels: ["m"] }],
  },
  moduleLevels: {
    settings: {
      rules: [
        { pattern: "arm-module", level: "debug" },
        { pattern: "cam-module", level: "DEBUG" },
        { pattern: "gps-*", level: "debug" },
        { pattern: "imu-module", level: "warn" },
        { pattern: "lidar-module", level: "debug" },
        { pattern: "lidar-module", level: "info" },
      ],
      modules: [
        { name: "arm-module", log_level: "" },
        { name: "cam-module", log_level: "error" },
        { name: "gps-module" },
        { name: "imu-module", log_level: "" },
        { name: "lidar-module" },
        { name: "plain-module", log_level: "" },
      ],
    },
    steps: [
      { moduleLevels: ["arm-module", "cam-module", "gps-module", "imu-module", "lidar-module", "plain-module"] },
      { levels: ["arm-module", "cam-module", "imu-module", "stderr:cam-module"] },
    ],
  },
  wildcards: {
    settings: {
      rules: [
        { pattern: "rdk.resource_manager.rdk:component:motor/*", level: "debug" },
        { pattern: "*:board/*", level: "warn" },
        { pattern: "svc.*.worker", level: "error" },
        { pattern: "rdk.x", level: "error" },
      ],
    },
    steps: [
      {
        levels: [motorLeft, motorRight, boardB1, "svc.modmanager.worker", "svc.worker", "rdk.x", "rdkax", "rdk.xy"],
      },
    ],
  },
  invalidPatterns: {
    settings: {
      rules: [
        { pattern: "svc.networking", level: "warn" },
        { pattern: "svc.(networking|modmanager)", level: "debug" },
        { pattern: "", level: "debug" },
        { pattern: "svc.modmanager", level: "loud" },
        { pattern: "svc.modmanager", level: "error" },
      ],
    },
    steps: [{ levels: ["svc.networking", "svc.modmanager"] }],
  },
  liveReconfiguration: {
    settings: { rules: [] },
    steps: [
      { levels: ["svc.networking", motorLeft, `${motorLeft} > encoder`] },
      { log: "svc.networking", level: "debug", message: "hidden at info" },
      {
        configure: {
          rules: [{ pattern: "svc.networking", level: "debug" }],
          resources: [{ api: "rdk:component:motor", name: "left", log_configuration: { level: "error" } }],
        },
      },
      { levels: ["svc.networking", motorLeft, `${motorLeft} > encoder`] },
      { log: "svc.networking", level: "debug", message: "shown after the new rule" },
      { log: `${motorLeft} > encoder`, level: "warn", message: "hidden under the motor's error level" },
      { configure: { rules: [{ pattern: "svc.[bad", level: "debug" }] } },
      { levels: ["svc.networking", motorLeft, `${motorLeft} > encoder`] },
      { log: `${motorLeft} > encoder`, level: "warn", message: "shown again" },
    ],
  },
} satisfies Record<string, LogScenarioInput>;

const noisy = (times: number) => ({
  steps: [
    { log: "svc.networking", level: "warn", message: "wifi lost", fields: { iface: "wlan0" }, times },
    { advance: 10_000 },
  ],
});

export const dedupScenarios = {
  once: noisy(1),
  threeTimes: noisy(3),
  fourTimes: noisy(4),
  tenTimes: noisy(10),
  spreadOverTheWindow: {
    steps: [
      { log: "svc.networking", level: "warn", message: "wifi lost", times: 3 },
      { advance: 4_000 },
      { log: "svc.networking", level: "warn", message: "wifi lost", times: 3 },
      { advance: 5_999 },
      { log: "svc.networking", level: "warn", message: "wifi lost" },
      { advance: 1 },
      { log: "svc.networking", level: "warn", message: "wifi lost", times: 2 },
    ],
  },
  differentFields: {
    steps: [
      { log: "svc.networking", level: "warn", message: "wifi lost", fields: { iface: "wlan0" }, times: 4 },
      { log: "svc.networking", level: "warn", message: "wifi lost", fields: { iface: "wlan1" }, times: 4 },
      { log: "svc.networking", level: "warn", message: "wifi lost", times: 4 },
      { log: "svc.networking", level: "warn", message: "wifi lost", fields: { iface: "wlan0", timestamp: 12 }, times: 4 },
      { log: "svc.modmanager", level: "warn", message: "wifi lost", fields: { iface: "wlan0" }, times: 4 },
    ],
  },
  offUnderMachineDebug: {
    settings: { debug: true },
    steps: [{ log: "svc.networking", level: "info", message: "tick", times: 6 }, { advance: 10_000 }],
  },
  offForALoggerAtDebug: {
    settings: { rules: [{ pattern: "svc.networking", level: "debug" }] },
    steps: [
      { log: "svc.networking", level: "info", message: "tick", times: 6 },
      { log: "svc.modmanager", level: "info", message: "tick", times: 6 },
      { advance: 10_000 },
    ],
  },
  offWhenDisabled: {
    settings: { disableDeduplication: true },
    steps: [{ log: "svc.networking", level: "info", message: "tick", times: 6 }, { advance: 10_000 }],
  },
  moduleStderrNeverHidden: {
    steps: [
      { log: "stderr:arm-module", level: "error", message: "panic: index out of range", times: 6 },
      { log: "arm-module", level: "info", message: "moving", times: 6 },
      { advance: 10_000 },
    ],
  },
  closeWritesOpenSummaries: {
    steps: [{ log: "svc.networking", level: "info", message: "tick", times: 7 }, { advance: 2_000 }, { close: true }],
  },
} satisfies Record<string, LogScenarioInput>;

// The MCU's core bundle (dist/mcu/core.mjs): the core as it runs in XS on a microcontroller.
// Left out is what only Linux runs, the agent's policy (core/agent) and the check of a
// configuration's resources without running it (`svc-server -validate`), and the manual clock
// of tests. The planner as a function of JSON stays: the cross-engine tests and the benchmark
// call it in XS.
export * from "../../core/errors/index.js";
export * from "../../core/config/index.js";
export * from "../../core/logging/index.js";
export * from "../../core/resource/index.js";
export {
  createGraphEngine,
  createMaintenanceGate,
  checkMaintenance,
  planReconfigure,
  resourceConfigEqual,
  DEFAULT_BUILD_CONCURRENCY,
  DEFAULT_BUILD_TIMEOUT_MS,
  DEFAULT_CLOSE_TIMEOUT_MS,
  DEFAULT_MAINTENANCE_READ_TIMEOUT_MS,
  DEFAULT_MAINTENANCE_RECHECK_MS,
  DEFAULT_RETRY_INITIAL_MS,
  DEFAULT_RETRY_MAX_MS,
} from "../../core/graph/index.js";
export * from "../../core/components/index.js";
export * from "../../core/rpc/index.js";
export * from "../../core/machine/index.js";
export { every, sleep } from "../../core/clock.js";

// Public face of core/graph: reconfiguration planning, the engine that carries plans out, the
// statuses it reports, the maintenance gate, and the check of a configuration's resources that
// finds what the engine would refuse without building anything.
export type { MachineState, ResourceState, ResourceStatus } from "./resource-status.js";
export type { PlanRejection, PlanResourceInput } from "./graph-entry.js";
export type { HeldResource, KeptResource, ReconfigurePlan } from "./plan.js";
export { checkResources } from "./check-resources.js";
export type { PlacedResource, ResourceCheck } from "./check-resources.js";
export { resourceConfigEqual } from "./config-equal.js";
export { planReconfigure } from "./plan-reconfigure.js";
export type { PlanRequest } from "./plan-reconfigure.js";
export {
  checkMaintenance,
  createMaintenanceGate,
  DEFAULT_MAINTENANCE_READ_TIMEOUT_MS,
  DEFAULT_MAINTENANCE_RECHECK_MS,
} from "./maintenance-gate.js";
export type { GateResult, MaintenanceDecision, MaintenanceGate, MaintenanceGateOptions } from "./maintenance-gate.js";
export {
  DEFAULT_BUILD_CONCURRENCY,
  DEFAULT_BUILD_TIMEOUT_MS,
  DEFAULT_CLOSE_TIMEOUT_MS,
  DEFAULT_RETRY_INITIAL_MS,
  DEFAULT_RETRY_MAX_MS,
} from "./engine-types.js";
export type {
  ApplyResult,
  GraphConfig,
  GraphEngine,
  GraphEngineOptions,
  GraphEvent,
  JoinedResource,
  MachineStatus,
  ShutdownReport,
} from "./engine-types.js";
export { createGraphEngine } from "./graph-engine.js";

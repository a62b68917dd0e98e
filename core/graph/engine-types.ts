// The public shapes of the graph engine: its options, what it is given, what it reports.
import type { Clock } from "../clock.js";
import type { MaintenanceConfig, ResourceConfig } from "../config/index.js";
import type { LoggerLike, ModelRegistry, Resource } from "../resource/index.js";
import type { MaintenanceDecision } from "./maintenance-gate.js";
import type { ReconfigurePlan } from "./plan.js";
import type { MachineState, ResourceStatus } from "./resource-status.js";

/** The part of a machine configuration the engine runs; a parsed machine config fits as it is. */
export interface GraphConfig {
  components?: ResourceConfig[];
  services?: ResourceConfig[];
  maintenance?: MaintenanceConfig | null;
}

/**
 * A resource another part of the machine serves (a remote's), joined to the graph beside the
 * configured ones: local resources may depend on it, and it is built (a local stand-in, by the
 * model its entry names) and closed like them. Its name is qualified by the parts it is reached
 * through (`pi:left`); its simple name (`left`) finds it only where no configured resource has
 * that name. Whoever joins it says its problems in the log: the engine only lists them.
 */
export interface JoinedResource {
  /** Its entry: API, qualified name, and the model registered to build its stand-in. */
  config: ResourceConfig;
  /** Why it cannot be used now (its part is unreachable): it is held UNHEALTHY with this, its dependents wait. */
  unavailable?: string;
}

export const DEFAULT_BUILD_CONCURRENCY = 10;
export const DEFAULT_BUILD_TIMEOUT_MS = 120_000;
export const DEFAULT_CLOSE_TIMEOUT_MS = 10_000;
export const DEFAULT_RETRY_INITIAL_MS = 1_000;
export const DEFAULT_RETRY_MAX_MS = 60_000;

export interface GraphEngineOptions {
  registry: ModelRegistry;
  clock: Clock;
  logger?: LoggerLike;
  /** The logger a resource's model receives; by default the engine's, with a `resource` field. */
  loggerFor?(name: string, config: ResourceConfig): LoggerLike;
  /** Builds (and closes) running at once within a level. Default 10. */
  buildConcurrency?: number;
  /** A build still running after this is abandoned and the resource marked UNHEALTHY. Default 2 min. */
  buildTimeoutMs?: number;
  /** A close still running after this is reported and skipped. Default 10 s. */
  closeTimeoutMs?: number;
  /** First retry delay of a failed build; doubles per failure up to `retryMaxMs`. Default 1 s. */
  retryInitialMs?: number;
  /** Longest retry delay. Default 60 s. */
  retryMaxMs?: number;
  /** How often a deferred configuration re-asks the maintenance sensor. Default 5 s. */
  maintenanceRecheckMs?: number;
  /** How long a maintenance sensor read may take before it counts as failed. Default 5 s. */
  maintenanceReadTimeoutMs?: number;
}

export type ApplyResult =
  | { outcome: "applied"; revision: string; plan: ReconfigurePlan }
  | { outcome: "deferred"; reason: string }
  | { outcome: "superseded" }
  | { outcome: "failed"; error: string }
  | { outcome: "closed" };

export type GraphEvent =
  | { kind: "resource"; status: ResourceStatus }
  | { kind: "resource-removed"; name: string }
  | { kind: "machine"; state: MachineState }
  | { kind: "applied"; revision: string; plan: ReconfigurePlan }
  | { kind: "deferred"; reason: string };

export interface MachineStatus {
  state: MachineState;
  /** Revision of the last configuration applied ("" before the first). */
  revision: string;
  /** True while a configuration or a retry is being carried out. */
  reconfiguring: boolean;
  /** True while a configuration waits for the maintenance window. */
  deferred: boolean;
  resources: ResourceStatus[];
}

export interface ShutdownReport {
  closed: string[];
  failed: { name: string; error: string }[];
  /** Closes that did not finish in time and were skipped. */
  hung: string[];
}

export interface GraphEngine {
  /**
   * Applies a configuration: the first one at once, later ones through the maintenance gate.
   * Resolves once it is carried out (every build settled), deferred, or replaced by a newer one.
   */
  apply(config: GraphConfig, options?: { revision?: string }): Promise<ApplyResult>;
  status(): MachineStatus;
  resourceStatus(name: string): ResourceStatus | undefined;
  /** A READY resource by full name, or by simple name when only one resource carries it. */
  resource(name: string): Resource | undefined;
  /**
   * Joins the resources of one source (`key`, such as a remote's, also the place their issues
   * name), replacing what it joined before; an empty list takes them all out again. The graph is
   * planned again with them, outside the maintenance window: they are not configuration.
   */
  join(key: string, resources: readonly JoinedResource[]): void;
  /** What the maintenance window of the running configuration says now. */
  checkMaintenance(): Promise<MaintenanceDecision>;
  onEvent(listener: (event: GraphEvent) => void): () => void;
  /** Resolves when no configuration, re-plan or retry is under way or queued. */
  whenIdle(): Promise<void>;
  /** Closes every resource, dependents first; later calls return the same report. */
  close(): Promise<ShutdownReport>;
}

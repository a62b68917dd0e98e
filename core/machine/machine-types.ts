// What a machine is to the targets that run it and to whoever follows its configuration: the
// options a target fills with what only it has, the loads it hands in, and the events it hears.
import type { Clock } from "../clock.js";
import type { ConfigIssue, ConfigReading, MachineConfig } from "../config/index.js";
import type { ApplyResult, GraphEngine, ResourceStatus, ShutdownReport } from "../graph/index.js";
import type { LogEngine } from "../logging/index.js";
import type { ModelRegistry } from "../resource/index.js";

/** The configuration a machine runs: as accepted (screened), with its issues, revision and origin. */
export interface RunningConfig {
  config: MachineConfig;
  issues: ConfigIssue[];
  revision: string;
  /** Where it came from (a file, an API call), as given to `load`; "" when not said. */
  origin: string;
}

/** A load the machine would not use, and why; the running configuration stays as it was. */
export interface Refusal {
  reason: string;
  origin: string;
  issues: ConfigIssue[];
}

/** How a load names itself, beyond its origin. */
export interface LoadOptions {
  /**
   * The revision the source gives the configuration (svc-cloud's revision number), reported by
   * GetMachineStatus and compared to tell an unchanged load; by default a hash of its text.
   */
  revision?: string;
}

/** What became of one load. */
export type LoadResult =
  | { outcome: "refused"; reason: string; issues: ConfigIssue[] }
  | { outcome: "unchanged"; revision: string }
  | (ApplyResult & { revision: string });

/**
 * What may be handed to `load`: configuration text, configuration data, or a reading already
 * made (readMachineConfig), which is then not parsed again.
 */
export type ConfigInput = string | object | ConfigReading;

/**
 * What happens to the configurations handed to a machine, in order. Every event carries the
 * configuration in force once it has happened (`running`), so a follower that only needs that
 * reads it from any event.
 * - loading: a load has begun (each load, the unchanged ones too).
 * - accepted: a configuration was taken and is in force from now on (before its resources are built).
 * - refused: a load was not used; `first` when no configuration runs yet.
 * - restored: taking a configuration failed part way; the one before is in force again.
 * - loaded: a load is over, with its result.
 */
export type ConfigEvent =
  | { kind: "loading"; origin: string; running: RunningConfig | undefined }
  | { kind: "accepted"; origin: string; running: RunningConfig; previous: RunningConfig | undefined; changes: readonly string[] }
  | { kind: "refused"; origin: string; running: RunningConfig | undefined; refusal: Refusal; first: boolean; written(): unknown }
  | { kind: "restored"; origin: string; running: RunningConfig | undefined; error: string }
  | { kind: "loaded"; origin: string; running: RunningConfig | undefined; result: LoadResult };

export type ConfigListener = (event: ConfigEvent) => void;

/**
 * A platform's screen over a parsed configuration, before it is judged: entries it will not run
 * are left out (with an issue each), or the whole configuration is refused (config null, the
 * reason among the issues). Returns the complete issue list. May throw: the load is refused.
 */
export type ConfigScreen = (
  parsed: { config: MachineConfig; issues: ConfigIssue[] },
  written: () => unknown,
) => { config: MachineConfig | null; issues: ConfigIssue[] };

/** Processes that provide models (modules), where a platform runs them. */
export interface MachineModules {
  /** Before the graph applies `config`: start what is new, restart what changed. */
  prepare(config: MachineConfig): Promise<void>;
  /** After the graph applied `config`: stop what is gone. */
  finish(config: MachineConfig): Promise<void>;
  /** Module statuses as resource statuses, for GetMachineStatus. */
  resourceStatuses(): ResourceStatus[];
  close(): Promise<void>;
}

export interface MachineOptions {
  /** The platform's models, already registered. */
  registry: ModelRegistry;
  logEngine: LogEngine;
  clock: Clock;
  /** 12 hex digits naming a configuration text (a hash; each platform has its own). */
  revisionOf(text: string): string;
  /** Leaves out what this platform will not run; see ConfigScreen. */
  screen?: ConfigScreen;
  /** Show secrets in logged configuration diffs (-reveal-sensitive-config-diffs). */
  revealSecrets?: boolean;
  buildTimeoutMs?: number;
  /** Builds (and closes) running at once (the graph's default when absent). */
  buildConcurrency?: number;
  /** Runs the configuration's modules; `settle` resolves when the graph has acted on new models. */
  modules?: (settle: () => Promise<void>) => MachineModules;
}

export interface Machine {
  readonly engine: GraphEngine;
  readonly registry: ModelRegistry;
  /**
   * Reads a configuration and applies it; resolves when it is applied, deferred or refused, and
   * never rejects. Loads run one after another in the order they were handed in.
   */
  load(input: ConfigInput, origin?: string, options?: LoadOptions): Promise<LoadResult>;
  current(): RunningConfig | undefined;
  /** The last load that was refused; cleared when a configuration is taken. */
  lastRefusal(): Refusal | undefined;
  /** Each configured module's state, as GetMachineStatus lists it. */
  moduleStatuses(): ResourceStatus[];
  /** Follows what happens to configurations from now on; returns the function that stops it. */
  onConfig(listener: ConfigListener): () => void;
  /** Closes every resource, dependents first, modular ones included; then the modules. */
  close(): Promise<ShutdownReport>;
}

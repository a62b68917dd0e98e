// What the supervisor of one module knows, in one place: its parts (fixed at creation) and the
// module's run as it stands (its state for GetMachineStatus, the process, the client once ready,
// the models it registered). The supervise loop (module-supervisor.ts), one run
// (module-run.ts) and the model registration (module-models.ts) all take it explicitly.
import type { Clock, LogEngine, Logger, ModelRegistry, ModuleConfig, ResourceConfig, ResourceState } from "../../../core/index.js";
import type { ModuleClient, ModuleHandler } from "./module-client.js";
import type { ModulePackageOptions } from "./module-package.js";
import type { ModuleProcess } from "./module-process.js";
import type { ModuleSockets } from "./module-sockets.js";
import { createModuleValidations, type ModuleValidations } from "./module-validations.js";
import { createRestartBackoff, type RestartBackoff } from "./restart-backoff.js";

export interface ModuleSupervisorOptions {
  config: ModuleConfig;
  registry: ModelRegistry;
  logEngine: LogEngine;
  sockets: ModuleSockets;
  packages: ModulePackageOptions;
  /** Relative `executable_path`s are found from here (the configuration file's folder). */
  baseDir: string;
  /** The configured components and services, for validating entries of the module's models. */
  resources(): readonly ResourceConfig[];
  /** Resolves when the graph has acted on registry changes (closed what lost its model). */
  settle(): Promise<void>;
  callTimeoutMs: number;
  stopGraceMs: number;
  clock: Clock;
}

export interface SupervisedModule {
  readonly options: ModuleSupervisorOptions;
  readonly config: ModuleConfig;
  readonly name: string;
  /** The name as messages quote it. */
  readonly quoted: string;
  readonly log: Logger;
  readonly stderrLog: Logger;
  readonly validations: ModuleValidations;
  readonly backoff: RestartBackoff;
  readonly clock: Clock;
  state: ResourceState;
  error: string | undefined;
  changedAt: number;
  proc: ModuleProcess | undefined;
  /** The client of the running module once it is ready. */
  ready: ModuleClient | undefined;
  handlers: ModuleHandler[];
  /** Takes back each model registered. */
  unregister: Array<() => void>;
  stopping: boolean;
  /** Ends a pause early (the module is being stopped). */
  wake: (() => void) | undefined;
  /** The last reason the executable could not be started, so a retry that fails alike stays quiet. */
  spawnProblem: string | undefined;
}

export function createSupervisedModule(options: ModuleSupervisorOptions): SupervisedModule {
  const { config, clock } = options;
  return {
    options,
    config,
    name: config.name,
    quoted: JSON.stringify(config.name),
    log: options.logEngine.moduleLogger(config.name),
    stderrLog: options.logEngine.moduleStderrLogger(config.name),
    validations: createModuleValidations(),
    backoff: createRestartBackoff(),
    clock,
    state: "CONFIGURING",
    error: undefined,
    changedAt: clock.now(),
    proc: undefined,
    ready: undefined,
    handlers: [],
    unregister: [],
    stopping: false,
    wake: undefined,
    spawnProblem: undefined,
  };
}

export function setModuleState(m: SupervisedModule, next: ResourceState, why?: string): void {
  if (m.state === next && m.error === why) return;
  m.state = next;
  m.error = why;
  m.changedAt = m.clock.now();
}

// One configured module, kept alive: resolve its executable (a registry package is downloaded
// first), start it, wait for its socket and for Ready, have it validate the entries of its models,
// register the models, and watch it. Any exit not asked for unregisters the models (the graph
// closes their resources and holds their dependents, naming the module), and the module is
// started again after the restart backoff; its resources come back when its models do. An
// executable that cannot be started (missing, not executable) is not a crash: the module is
// UNHEALTHY with the reason, said once in the log, and tried again every second (so it starts
// soon after the file appears), without counting toward the backoff of real crashes.
//
// The supervisor is its state (supervised-module.ts), runs (module-run.ts) and the models they
// register (module-models.ts); this file is the loop between runs and the face the manager sees.
import { errorMessage, type LogLevel, type ModuleConfig, type ResourceConfig, type ResourceState } from "../../../core/index.js";
import { ModuleSpawnError } from "./module-executable.js";
import { modelPairs, unregisterModels, validateEntries } from "./module-models.js";
import { runModuleOnce } from "./module-run.js";
import { createSupervisedModule, setModuleState, type ModuleSupervisorOptions, type SupervisedModule } from "./supervised-module.js";

export type { ModuleSupervisorOptions } from "./supervised-module.js";

/** How often a module whose executable cannot be started is tried again. */
export const SPAWN_RETRY_MS = 1_000;

export interface ModuleStatus {
  name: string;
  state: ResourceState;
  error?: string;
  consecutiveFailures: number;
  pid?: number;
  /** `api model` pairs the module registered. */
  models: string[];
  changedAt: number;
}

export interface ModuleSupervisor {
  readonly config: ModuleConfig;
  /** Asks the running module about entries of its models that it has not seen yet. */
  validate(resources: readonly ResourceConfig[]): Promise<void>;
  status(): ModuleStatus;
  /**
   * Gives the running module a new log level; false when it must be started again to take it
   * (it does not follow level changes). A module between runs takes it when it starts.
   */
  followLogLevel(level: LogLevel): boolean;
  /** Unregisters its models, lets the graph remove their resources, then stops the process. */
  stop(): Promise<void>;
}

export function superviseModule(options: ModuleSupervisorOptions): ModuleSupervisor {
  const m = createSupervisedModule(options);
  const { clock } = m;
  const running = supervise(m);

  return {
    config: m.config,
    async validate(resources) {
      const client = m.ready;
      if (!client) return;
      await validateEntries(m, client, resources);
    },
    status() {
      const status: ModuleStatus = {
        name: m.name,
        state: m.state,
        consecutiveFailures: m.backoff.consecutiveFailures(clock.now()),
        models: modelPairs(m).map(({ api, model }) => `${api} ${model}`),
        changedAt: m.changedAt,
      };
      if (m.error !== undefined) status.error = m.error;
      if (m.proc && !m.proc.hasExited()) status.pid = m.proc.pid;
      return status;
    },
    followLogLevel(level) {
      if (m.stopping || !m.proc || m.proc.hasExited()) return true;
      return m.proc.setLogLevel(level);
    },
    async stop() {
      if (m.stopping) return running;
      m.stopping = true;
      setModuleState(m, "REMOVING");
      m.wake?.();
      // Resources first (dependents before them, by the graph), while the module can still answer.
      unregisterModels(m, `module ${m.quoted} was stopped`);
      await options.settle();
      m.ready = undefined;
      if (m.proc && !m.proc.hasExited()) await m.proc.stop(options.stopGraceMs);
      await running;
      setModuleState(m, "UNCONFIGURED");
      m.log.info(`module ${m.quoted} stopped`);
    },
  };
}

/** Runs the module again and again, with the backoff between runs, until it is stopped. */
async function supervise(m: SupervisedModule): Promise<void> {
  const { clock, log, quoted } = m;
  while (!m.stopping) {
    let why: string;
    try {
      why = await runModuleOnce(m);
    } catch (thrown) {
      if (thrown instanceof ModuleSpawnError && !m.stopping) {
        await cannotStart(m, thrown.message);
        continue;
      }
      why = errorMessage(thrown);
    }
    if (m.stopping) break;
    const delay = m.backoff.failed(clock.now());
    const failures = m.backoff.consecutiveFailures(clock.now());
    const message = `${why}; consecutive_failures: ${failures}; restarting in ${delay} ms`;
    log.error(`module ${quoted} failed: ${why}`, { consecutive_failures: failures, restart_in_ms: delay });
    unregisterModels(m, `module ${quoted} is restarting: it ${why}`);
    setModuleState(m, "UNHEALTHY", message);
    await pause(m, delay);
    if (!m.stopping) setModuleState(m, "CONFIGURING", `restarting after: ${why}`);
  }
}

/** The executable cannot be started: say so (once per reason) and wait for the next try. */
async function cannotStart(m: SupervisedModule, reason: string): Promise<void> {
  if (reason !== m.spawnProblem) m.log.error(`module ${m.quoted} cannot start: ${reason}`, { retry_every_ms: SPAWN_RETRY_MS });
  m.spawnProblem = reason;
  unregisterModels(m, `module ${m.quoted} cannot start: ${reason}`);
  setModuleState(m, "UNHEALTHY", reason);
  await pause(m, SPAWN_RETRY_MS);
}

/** Waits `ms`, or until the module is stopped. */
function pause(m: SupervisedModule, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = m.clock.setTimeout(resolve, ms);
    m.wake = () => {
      m.clock.clearTimeout(timer);
      resolve();
    };
  }).finally(() => (m.wake = undefined));
}

// One configured module, kept alive: resolve its executable (a registry package is downloaded
// first), start it, wait for its socket and for Ready, have it validate the entries of its models,
// register the models, and watch it. Any exit not asked for unregisters the models (the graph
// closes their resources and holds their dependents, naming the module), and the module is
// started again after the restart backoff; its resources come back when its models do. An
// executable that cannot be started (missing, not executable) is not a crash: the module is
// UNHEALTHY with the reason, said once in the log, and tried again every second (so it starts
// soon after the file appears), without counting toward the backoff of real crashes.
import {
  errorMessage,
  type LogEngine,
  type LogLevel,
  type ModelRegistry,
  type ModuleConfig,
  type ResourceConfig,
  type ResourceState,
} from "../../../core/index.js";
import { isRemoteApi } from "../remote/index.js";
import { createModuleClient, type ModuleClient, type ModuleHandler } from "./module-client.js";
import { resolveModulePackage, type ModulePackageOptions } from "./module-package.js";
import { ModuleSpawnError } from "./module-executable.js";
import { describeExit, startModuleProcess, type ModuleProcess } from "./module-process.js";
import type { ModuleSockets } from "./module-sockets.js";
import { createModuleValidations } from "./module-validations.js";
import { modularModel } from "./modular-model.js";
import { createRestartBackoff } from "./restart-backoff.js";
import { isAbsolute, resolve } from "node:path";

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
}

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
  const { config, registry } = options;
  const name = config.name;
  const quoted = JSON.stringify(name);
  const log = options.logEngine.moduleLogger(name);
  const stderrLog = options.logEngine.moduleStderrLogger(name);
  const validations = createModuleValidations();
  const backoff = createRestartBackoff();
  let state: ResourceState = "CONFIGURING";
  let error: string | undefined;
  let changedAt = Date.now();
  let proc: ModuleProcess | undefined;
  let ready: ModuleClient | undefined;
  let handlers: ModuleHandler[] = [];
  let unregister: Array<() => void> = [];
  let stopping = false;
  let wake: (() => void) | undefined;
  // The last reason the executable could not be started, so a retry that fails alike stays quiet.
  let spawnProblem: string | undefined;

  const setState = (next: ResourceState, why?: string) => {
    if (state === next && error === why) return;
    state = next;
    error = why;
    changedAt = Date.now();
  };
  const modelPairs = () => handlers.flatMap((h) => h.models.map((model) => ({ api: h.api, model })));
  const explain = (reason: string) => {
    for (const { api, model } of modelPairs()) registry.explainAbsence(api, model, reason);
  };

  async function executable(): Promise<{ path: string; root: string }> {
    if (config.type === "registry") {
      const found = await resolveModulePackage(config, options.packages);
      return { path: found.executable, root: found.root };
    }
    const path = isAbsolute(config.executable_path) ? config.executable_path : resolve(options.baseDir, config.executable_path);
    return { path, root: resolve(path, "..") };
  }

  async function validateWith(client: ModuleClient, resources: readonly ResourceConfig[], pairs: Set<string>): Promise<void> {
    await Promise.all(
      resources
        .filter((r) => pairs.has(`${r.api} ${r.model}`) && validations.get(r) === undefined)
        .map(async (r) => {
          try {
            validations.set(r, await client.validate(r, options.callTimeoutMs));
          } catch (thrown) {
            validations.set(r, { error: errorMessage(thrown) });
          }
        }),
    );
  }

  function register(client: ModuleClient): void {
    for (const handler of handlers) {
      if (!isRemoteApi(handler.api)) {
        log.warn(`module ${quoted} serves API ${handler.api}, which svc does not serve; its models are not used`, { models: handler.models });
        continue;
      }
      for (const model of handler.models) {
        try {
          registry.explainAbsence(handler.api, model, undefined);
          unregister.push(
            registry.register(
              modularModel({ api: handler.api, model, moduleName: name, client: () => (ready === client ? client : undefined), validations, callTimeoutMs: options.callTimeoutMs }),
            ),
          );
        } catch (thrown) {
          log.error(`module ${quoted} cannot provide model ${model} for API ${handler.api}: ${errorMessage(thrown)}`);
        }
      }
    }
  }

  function unregisterAll(reason: string): void {
    explain(reason);
    for (const remove of unregister) remove();
    unregister = [];
  }

  /** One run: start, become ready, serve until the process exits. Returns why it ended. */
  async function runOnce(): Promise<string> {
    const started = Date.now();
    const found = await executable();
    const socketPath = options.sockets.forModule(name);
    const level = options.logEngine.moduleLogLevel(name);
    const p = await startModuleProcess({
      executable: found.path,
      setting: config.type === "registry" ? `the entrypoint of ${config.module_id}` : "executable_path",
      recordGroup: options.sockets.recordGroup,
      socketPath,
      logLevel: level,
      root: found.root,
      env: config.env,
      loggers: {
        // A line from one of the module's resources goes to `<module>.<resource>`.
        log: (lvl, message, fields) => {
          const { logger: sub, ...rest } = fields ?? {};
          (typeof sub === "string" && sub !== "" ? log.child(sub) : log).log(lvl, message, rest);
        },
        stderr: (line) => stderrLog.error(line),
      },
    });
    proc = p;
    spawnProblem = undefined;
    // Stopped while its executable was being looked at: stop() found no process to end.
    if (stopping) {
      await p.stop(options.stopGraceMs);
      return "stopped";
    }
    log.info(`module ${quoted} started`, { pid: p.pid, executable: found.path });
    const client = createModuleClient(socketPath);
    try {
      await p.waitForSocket(config.startup_timeout_ms);
      const left = Math.max(0, config.startup_timeout_ms - (Date.now() - started));
      const exitedEarly = p.exited.then((exit) => Promise.reject(new Error(`${describeExit(exit)} before it was ready`)));
      exitedEarly.catch(() => {});
      handlers = await Promise.race([client.waitUntilReady(options.sockets.parent, left, () => !stopping && !p.hasExited()), exitedEarly]);
      const pairs = new Set(modelPairs().map(({ api, model }) => `${api} ${model}`));
      await validateWith(client, options.resources(), pairs);
      if (stopping) return "stopped";
      ready = client;
      register(client);
      backoff.started(Date.now());
      setState("READY");
      log.info(`module ${quoted} is ready`, { pid: p.pid, models: modelPairs().map((m) => m.model) });
      const exit = await p.exited;
      return describeExit(exit);
    } catch (thrown) {
      // Start-up failed with the process still there (not ready in time, a broken answer): end it.
      if (!p.hasExited()) await p.stop(options.stopGraceMs);
      return errorMessage(thrown);
    } finally {
      if (ready === client && !stopping) ready = undefined;
      if (stopping) void p.exited.then(() => client.close());
      else client.close();
    }
  }

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => (wake = undefined));

  /** The executable cannot be started: say so (once per reason) and wait for the next try. */
  async function cannotStart(reason: string): Promise<void> {
    if (reason !== spawnProblem) log.error(`module ${quoted} cannot start: ${reason}`, { retry_every_ms: SPAWN_RETRY_MS });
    spawnProblem = reason;
    unregisterAll(`module ${quoted} cannot start: ${reason}`);
    setState("UNHEALTHY", reason);
    await pause(SPAWN_RETRY_MS);
  }

  async function supervise(): Promise<void> {
    while (!stopping) {
      let why: string;
      try {
        why = await runOnce();
      } catch (thrown) {
        if (thrown instanceof ModuleSpawnError && !stopping) {
          await cannotStart(thrown.message);
          continue;
        }
        why = errorMessage(thrown);
      }
      if (stopping) break;
      const delay = backoff.failed(Date.now());
      const failures = backoff.consecutiveFailures(Date.now());
      const message = `${why}; consecutive_failures: ${failures}; restarting in ${delay} ms`;
      log.error(`module ${quoted} failed: ${why}`, { consecutive_failures: failures, restart_in_ms: delay });
      unregisterAll(`module ${quoted} is restarting: it ${why}`);
      setState("UNHEALTHY", message);
      await pause(delay);
      if (!stopping) setState("CONFIGURING", `restarting after: ${why}`);
    }
  }

  const running = supervise();

  return {
    config,
    async validate(resources) {
      const client = ready;
      if (!client) return;
      await validateWith(client, resources, new Set(modelPairs().map(({ api, model }) => `${api} ${model}`)));
    },
    status() {
      const status: ModuleStatus = {
        name,
        state,
        consecutiveFailures: backoff.consecutiveFailures(Date.now()),
        models: modelPairs().map(({ api, model }) => `${api} ${model}`),
        changedAt,
      };
      if (error !== undefined) status.error = error;
      if (proc && !proc.hasExited()) status.pid = proc.pid;
      return status;
    },
    followLogLevel(level) {
      if (stopping || !proc || proc.hasExited()) return true;
      return proc.setLogLevel(level);
    },
    async stop() {
      if (stopping) return running;
      stopping = true;
      setState("REMOVING");
      wake?.();
      // Resources first (dependents before them, by the graph), while the module can still answer.
      unregisterAll(`module ${quoted} was stopped`);
      await options.settle();
      ready = undefined;
      if (proc && !proc.hasExited()) await proc.stop(options.stopGraceMs);
      await running;
      setState("UNCONFIGURED");
      log.info(`module ${quoted} stopped`);
    },
  };
}

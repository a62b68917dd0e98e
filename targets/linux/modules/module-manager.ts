// The configured modules of a running machine. Around each configuration the graph applies:
// before it, added modules start and changed ones (executable_path, env, package or
// startup_timeout) are stopped and started again, running modules are given their log level
// under the new configuration (its `log_level`, `debug`, the `log` rules; one that cannot take
// a level live is started again), and running modules validate the entries of their models;
// after it, removed modules are stopped (their resources, if still configured, wait with an
// error naming the module). Closing stops every module.
import type { Clock, LogEngine, MachineConfig, ModelRegistry, ModuleConfig, ResourceConfig, ResourceStatus } from "../../../core/index.js";
import { createNodeClock } from "../logging/node-clock.js";
import type { ModulePackageOptions } from "./module-package.js";
import type { ModuleSockets } from "./module-sockets.js";
import { superviseModule, type ModuleStatus, type ModuleSupervisor } from "./module-supervisor.js";

export interface ModuleManagerOptions {
  registry: ModelRegistry;
  logEngine: LogEngine;
  sockets: ModuleSockets;
  packages: ModulePackageOptions;
  /** Resolves when the graph has acted on registry changes. */
  settle(): Promise<void>;
  /** Relative executable paths are found from here. */
  baseDir: string;
  /** Deadline of one module call (ValidateConfig, AddResource, ...). Default 60 s. */
  callTimeoutMs?: number;
  /** SIGTERM to SIGKILL. Default 10 s. */
  stopGraceMs?: number;
  /** Time for start-up deadlines, restart backoff and stop grace. Node's by default. */
  clock?: Clock;
}

export interface ModuleManager {
  /** Before the graph applies `config`. */
  prepare(config: MachineConfig): Promise<void>;
  /** After the graph applied `config`. */
  finish(config: MachineConfig): Promise<void>;
  statuses(): ModuleStatus[];
  /** Module statuses as resource statuses (`rdk:module:process/<name>`), for GetMachineStatus. */
  resourceStatuses(): ResourceStatus[];
  close(): Promise<void>;
}

export const MODULE_STATUS_API = "rdk:module:process";

function sameRun(a: ModuleConfig, b: ModuleConfig): boolean {
  return (
    a.type === b.type &&
    a.executable_path === b.executable_path &&
    a.module_id === b.module_id &&
    a.version === b.version &&
    a.startup_timeout_ms === b.startup_timeout_ms &&
    JSON.stringify(Object.entries(a.env).sort()) === JSON.stringify(Object.entries(b.env).sort())
  );
}

export function createModuleManager(options: ModuleManagerOptions): ModuleManager {
  const supervisors = new Map<string, ModuleSupervisor>();
  const clock = options.clock ?? createNodeClock({ keepAlive: true });
  let resources: readonly ResourceConfig[] = [];
  let closed = false;

  const start = (config: ModuleConfig) =>
    supervisors.set(
      config.name,
      superviseModule({
        config,
        registry: options.registry,
        logEngine: options.logEngine,
        sockets: options.sockets,
        packages: options.packages,
        baseDir: options.baseDir,
        resources: () => resources,
        settle: options.settle,
        callTimeoutMs: options.callTimeoutMs ?? 60_000,
        stopGraceMs: options.stopGraceMs ?? 10_000,
        clock,
      }),
    );

  return {
    async prepare(config) {
      if (closed) return;
      resources = [...config.components, ...config.services];
      // The log engine already runs under `config`, so this is the level each module gets now.
      const changed = config.modules.filter((m) => {
        const running = supervisors.get(m.name);
        if (running === undefined) return false;
        return !sameRun(running.config, m) || !running.followLogLevel(options.logEngine.moduleLogLevel(m.name));
      });
      await Promise.all(changed.map((m) => supervisors.get(m.name)!.stop()));
      for (const m of changed) supervisors.delete(m.name);
      for (const m of config.modules) if (!supervisors.has(m.name)) start(m);
      await Promise.all(Array.from(supervisors.values(), (s) => s.validate(resources)));
    },
    async finish(config) {
      const wanted = new Set(config.modules.map((m) => m.name));
      const removed = Array.from(supervisors.values()).filter((s) => !wanted.has(s.config.name));
      await Promise.all(removed.map((s) => s.stop()));
      for (const s of removed) supervisors.delete(s.config.name);
    },
    statuses: () => Array.from(supervisors.values(), (s) => s.status()),
    resourceStatuses() {
      return Array.from(supervisors.values(), (s) => {
        const m = s.status();
        const status: ResourceStatus = { name: `${MODULE_STATUS_API}/${m.name}`, state: m.state, revision: "", changedAt: m.changedAt };
        if (m.error !== undefined) status.error = m.error;
        return status;
      });
    },
    async close() {
      closed = true;
      await Promise.all(Array.from(supervisors.values(), (s) => s.stop()));
      supervisors.clear();
    },
  };
}

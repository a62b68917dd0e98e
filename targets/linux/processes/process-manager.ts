// The configuration's processes, following each configuration taken: an added entry starts, a
// removed one stops, a changed one stops and starts again, an unchanged one keeps running (a
// one-shot one is not run again). Configurations are applied one after another, in the order
// given, so a quick second edit never races the first. On close every process is stopped, all
// at once, each with its own stop signal and timeout.
import { isAbsolute, resolve } from "node:path";
import type { Clock, ConfigListener, LogEngine, ProcessConfig } from "../../../core/index.js";
import { superviseProcess, type ProcessStatus, type ProcessSupervisor } from "./process-supervisor.js";

export interface ProcessManagerOptions {
  logEngine: LogEngine;
  clock: Clock;
  /** A relative `cwd` is found from here (the configuration file's folder); "" is svc-server's own. */
  baseDir: string;
  /** Writes down each process group while it runs, so a killed svc-server's are stopped next time. */
  recordGroup?: (pid: number) => () => void;
}

export interface ProcessManager {
  /** Makes the running processes those of `configs`; resolves once stopped ones have exited. */
  apply(configs: readonly ProcessConfig[]): Promise<void>;
  statuses(): ProcessStatus[];
  /** Stops every process; later applies do nothing. */
  close(): Promise<void>;
}

/** The logger a process's output and story are written under. */
export function processLoggerName(id: string): string {
  return `process.${id}`;
}

export function createProcessManager(options: ProcessManagerOptions): ProcessManager {
  const running = new Map<string, ProcessSupervisor>();
  let queue: Promise<void> = Promise.resolve();
  let closed = false;

  const start = (config: ProcessConfig) => {
    const name = processLoggerName(config.id);
    running.set(
      config.id,
      superviseProcess({
        config,
        cwd: config.cwd === "" ? process.cwd() : isAbsolute(config.cwd) ? config.cwd : resolve(options.baseDir, config.cwd),
        log: options.logEngine.logger(name),
        stderrLog: options.logEngine.logger(`${name}.stderr`, { deduplicate: false }),
        recordGroup: options.recordGroup,
        clock: options.clock,
      }),
    );
  };

  async function reconcile(configs: readonly ProcessConfig[]): Promise<void> {
    if (closed) return;
    const wanted = new Map(configs.map((config) => [config.id, config]));
    const leaving = [...running.values()].filter((p) => !sameConfig(p.config, wanted.get(p.config.id)));
    for (const p of leaving) running.delete(p.config.id);
    await Promise.all(leaving.map((p) => p.stop()));
    if (closed) return;
    for (const config of configs) if (!running.has(config.id)) start(config);
  }

  return {
    apply(configs) {
      const applied = queue.then(() => reconcile(configs));
      queue = applied.catch(() => {});
      return applied;
    },
    statuses: () => [...running.values()].map((p) => p.status()),
    async close() {
      closed = true;
      await queue;
      const all = [...running.values()];
      running.clear();
      await Promise.all(all.map((p) => p.stop()));
    },
  };
}

function sameConfig(a: ProcessConfig, b: ProcessConfig | undefined): boolean {
  return b !== undefined && JSON.stringify(a) === JSON.stringify(b);
}

/**
 * A machine's configuration listener that keeps `manager` on the processes of the configuration
 * in force: each one taken, and the one before when taking a new one failed part way.
 */
export function followConfigProcesses(manager: ProcessManager, onError: (error: unknown) => void): ConfigListener {
  return (event) => {
    if (event.kind !== "accepted" && event.kind !== "restored") return;
    manager.apply(event.running?.config.processes ?? []).catch(onError);
  };
}

// Keeps svc-server running: starts the current version, counts it started when its
// /restart_status answers, kills and starts it again when it does not serve within the start
// timeout, starts it again with backoff when it exits, and stops it for good when disabled.
// Upgrades and rollbacks ask it to restart with whatever `current` points at now. Everything it
// sees is reported as events; the update manager judges new versions from them, and the
// supervisor waits for that judgement before it starts a server again: a version that failed its
// probation is rolled back first instead of being started once more. Before each start, what a
// server that died left (its modules' process groups and folders) is stopped and removed.
import type { Logger } from "../../../../core/index.js";
import { createRestartBackoff } from "../../modules/restart-backoff.js";
import { sweepModuleFolders, temporaryFolderOf } from "../../system/index.js";
import { fetchRestartStatus } from "./restart-status.js";
import { describeServerExit, startServerProcess, type ServerProcess } from "./server-process.js";

export type SupervisorEvent =
  | { kind: "starting"; executable: string; pid: number }
  | { kind: "started"; executable: string; pid: number; afterMs: number }
  | { kind: "start-timeout"; executable: string; timeoutMs: number }
  | { kind: "exited"; executable: string; how: string; ranMs: number };

export type SupervisorState = "stopped" | "starting" | "running" | "waiting";

/**
 * Told every event; the supervisor goes on once the returned promise settles. A listener may ask
 * for `restart()`, but must not wait for `disable()` or `close()`: those wait for the loop, which
 * waits for the listener.
 */
export type SupervisorListener = (event: SupervisorEvent) => void | Promise<void>;

export interface ServerSupervisorOptions {
  /** The executable to run now (the `current` symlink's); undefined while none is installed. */
  executable(): string | undefined;
  configFile: string;
  pidFile: string;
  restartStatusUrl(): string;
  /** Scaled: `viam_server_start_timeout_minutes`. */
  startTimeoutMs(): number;
  /** Scaled restart backoff: first delay, cap, and how long up counts as healthy. */
  backoff: { initialMs: number; maxMs: number; healthyMs: number };
  /** How long a stopping server gets before SIGKILL. */
  stopGraceMs: number;
  logger: Logger;
  env?: Record<string, string | undefined>;
  /** Where the server's output goes; the agent's own stdout and stderr by default. */
  output?: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream };
  /** Readiness poll interval. Default 100 ms. */
  pollMs?: number;
}

export interface ServerSupervisor {
  /** Starts keeping the server running (again, after `disable`). */
  enable(): void;
  /** Stops the server and keeps it stopped. */
  disable(): Promise<void>;
  /** Stops the running server (if any) and starts `executable()` now, with the backoff reset. */
  restart(reason: string): Promise<void>;
  state(): SupervisorState;
  /** The running server's PID, while it serves. */
  runningPid(): number | undefined;
  onEvent(listener: SupervisorListener): () => void;
  /** Stops the server and the loop for good. */
  close(): Promise<void>;
}

export function createServerSupervisor(options: ServerSupervisorOptions): ServerSupervisor {
  const log = options.logger;
  const listeners = new Set<SupervisorListener>();
  let backoff = createRestartBackoff(options.backoff.initialMs, options.backoff.maxMs, options.backoff.healthyMs);
  let wanted = false;
  let closed = false;
  let state: SupervisorState = "stopped";
  let current: ServerProcess | undefined;
  // Servers stopped on purpose (restart, disable): their exit is not a failure.
  const stopping = new WeakSet<ServerProcess>();
  let servingPid: number | undefined;
  let loop: Promise<void> | undefined;
  // Wakes the loop out of a wait (backoff, nothing installed) when something changed.
  let wake: () => void = () => {};

  async function emit(event: SupervisorEvent): Promise<void> {
    const outcomes = await Promise.allSettled([...listeners].map(async (listener) => listener(event)));
    for (const outcome of outcomes) {
      if (outcome.status === "rejected") log.error(`handling the svc-server event "${event.kind}" failed: ${(outcome.reason as Error)?.message ?? outcome.reason}`);
    }
  }
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = () => {};
        resolve();
      }
      wake = done;
    });

  async function runOnce(executable: string): Promise<void> {
    // The server keeps its module folders in its temporary folder: the one its environment names.
    await sweepModuleFolders({ base: temporaryFolderOf(options.env ?? process.env), logger: log }).catch((error: Error) =>
      log.error(`cannot sweep what an earlier svc-server left: ${error.message}`),
    );
    const startedAt = Date.now();
    const server = startServerProcess({
      executable,
      configFile: options.configFile,
      pidFile: options.pidFile,
      env: options.env,
      ...options.output,
    });
    current = server;
    state = "starting";
    log.info(`starting svc-server ${executable} (pid ${server.pid})`);
    await emit({ kind: "starting", executable, pid: server.pid });

    const timeoutMs = options.startTimeoutMs();
    const served = await waitUntilServing(server, timeoutMs);
    if (served === "timeout") {
      log.warn(`svc-server did not serve within ${timeoutMs} ms; killing it`);
      await server.stop(options.stopGraceMs);
      current = undefined;
      // The loop then starts whatever is current once the listeners are done: the same version
      // again, or the one a rollback went back to.
      await emit({ kind: "start-timeout", executable, timeoutMs });
      return;
    }
    if (served === "serving") {
      servingPid = server.pid;
      state = "running";
      backoff.started(Date.now());
      log.info(`svc-server serves (pid ${server.pid}, ${Date.now() - startedAt} ms after start)`);
      await emit({ kind: "started", executable, pid: server.pid, afterMs: Date.now() - startedAt });
    }
    const exit = await server.exited;
    current = undefined;
    servingPid = undefined;
    if (!wanted || stopping.has(server)) return;
    const how = describeServerExit(exit);
    await emit({ kind: "exited", executable, how, ranMs: Date.now() - startedAt });
    // Another version is current now (a rollback, an upgrade): it has not failed, start it at once.
    if (!wanted || closed || options.executable() !== executable) return;
    const delay = backoff.failed(Date.now());
    log.warn(`svc-server ${how}; starting it again in ${delay} ms`);
    state = "waiting";
    await pause(delay);
  }

  async function waitUntilServing(server: ServerProcess, timeoutMs: number): Promise<"serving" | "exited" | "timeout"> {
    const deadline = Date.now() + timeoutMs;
    const pollMs = options.pollMs ?? 100;
    for (;;) {
      if (server.hasExited()) return "exited";
      if (await fetchRestartStatus(options.restartStatusUrl(), Math.max(200, pollMs * 5))) return "serving";
      if (server.hasExited()) return "exited";
      if (Date.now() >= deadline) return "timeout";
      await Promise.race([server.exited, new Promise((resolve) => setTimeout(resolve, pollMs))]);
    }
  }

  async function keepRunning(): Promise<void> {
    while (wanted && !closed) {
      const executable = options.executable();
      if (executable === undefined) {
        state = "waiting";
        await pause(1_000);
        continue;
      }
      await runOnce(executable);
    }
    state = "stopped";
  }

  function ensureLoop(): void {
    if (loop) return;
    loop = keepRunning().finally(() => (loop = undefined));
  }

  async function stopCurrent(): Promise<void> {
    const server = current;
    wake();
    if (!server) return;
    stopping.add(server);
    const exit = await server.stop(options.stopGraceMs);
    log.info(`svc-server stopped (${describeServerExit(exit)})`);
  }

  return {
    enable() {
      if (closed) return;
      wanted = true;
      ensureLoop();
    },
    async disable() {
      wanted = false;
      await stopCurrent();
      await loop;
    },
    async restart(reason) {
      log.info(`restarting svc-server: ${reason}`);
      backoff = createRestartBackoff(options.backoff.initialMs, options.backoff.maxMs, options.backoff.healthyMs);
      await stopCurrent();
      if (wanted && !closed) ensureLoop();
    },
    state: () => state,
    runningPid: () => servingPid,
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      closed = true;
      wanted = false;
      await stopCurrent();
      await loop;
    },
  };
}

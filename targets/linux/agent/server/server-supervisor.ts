// Keeps svc-server running: starts the current version, counts it started when its
// /restart_status answers, kills and starts it again when it does not serve within the start
// timeout, starts it again with backoff when it exits, and stops it for good when disabled.
// Upgrades and rollbacks ask it to restart with whatever `current` points at now. Everything it
// sees is reported as events; the update manager judges new versions from them, and the
// supervisor waits for that judgement before it starts a server again: a version that failed its
// probation is rolled back first instead of being started once more. Before each start, what a
// server that died left (its modules' process groups and folders) is stopped and removed.
import type { Logger } from "../../../../core/index.js";
import { createNodeClock } from "../../logging/node-clock.js";
import { createRestartBackoff } from "../../modules/restart-backoff.js";
import { describeServerExit } from "./server-process.js";
import { pause, runServer, type Supervision } from "./server-run.js";
import type { ServerSupervisor, ServerSupervisorOptions, SupervisorListener } from "./supervisor-types.js";

export type { ServerSupervisor, ServerSupervisorOptions, SupervisorEvent, SupervisorListener, SupervisorState } from "./supervisor-types.js";

export function createServerSupervisor(options: ServerSupervisorOptions): ServerSupervisor {
  const log = options.logger;
  const listeners = new Set<SupervisorListener>();
  const real = options.clocks?.real ?? createNodeClock({ keepAlive: true });
  const newBackoff = () => createRestartBackoff(options.backoff.initialMs, options.backoff.maxMs, options.backoff.healthyMs);
  const s: Supervision = {
    options,
    clocks: { agent: options.clocks?.agent ?? real, real },
    log,
    backoff: newBackoff(),
    wanted: false,
    closed: false,
    state: "stopped",
    current: undefined,
    stopping: new WeakSet(),
    servingPid: undefined,
    wake: () => {},
    async emit(event) {
      const outcomes = await Promise.allSettled([...listeners].map(async (listener) => listener(event)));
      for (const outcome of outcomes) {
        if (outcome.status === "rejected") log.error(`handling the svc-server event "${event.kind}" failed: ${(outcome.reason as Error)?.message ?? outcome.reason}`);
      }
    },
  };
  let loop: Promise<void> | undefined;

  async function keepRunning(): Promise<void> {
    while (s.wanted && !s.closed) {
      const executable = options.executable();
      if (executable === undefined) {
        s.state = "waiting";
        await pause(s, s.clocks.real, 1_000);
        continue;
      }
      await runServer(s, executable);
    }
    s.state = "stopped";
  }

  function ensureLoop(): void {
    if (loop) return;
    loop = keepRunning().finally(() => (loop = undefined));
  }

  async function stopCurrent(): Promise<void> {
    const server = s.current;
    s.wake();
    if (!server) return;
    s.stopping.add(server);
    const exit = await server.stop(options.stopGraceMs);
    log.info(`svc-server stopped (${describeServerExit(exit)})`);
  }

  return {
    enable() {
      if (s.closed) return;
      s.wanted = true;
      ensureLoop();
    },
    async disable() {
      s.wanted = false;
      await stopCurrent();
      await loop;
    },
    async restart(reason) {
      log.info(`restarting svc-server: ${reason}`);
      s.backoff = newBackoff();
      await stopCurrent();
      if (s.wanted && !s.closed) ensureLoop();
    },
    state: () => s.state,
    runningPid: () => s.servingPid,
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      s.closed = true;
      s.wanted = false;
      await stopCurrent();
      await loop;
    },
  };
}

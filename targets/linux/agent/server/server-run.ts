// One run of svc-server under the supervisor, from start to exit: what an earlier server left is
// swept, the server is started, counted started once /restart_status answers (killed when it does
// not within the start timeout), and when it exits unasked, started again after the backoff.
// Every step is told to the listeners, and waited for.
import type { Clock, Logger } from "../../../../core/index.js";
import type { RestartBackoff } from "../../modules/restart-backoff.js";
import { RESTART_EXIT_CODE } from "../../cloud-link/index.js";
import { sweepModuleFolders, temporaryFolderOf } from "../../system/index.js";
import { fetchRestartStatus } from "./restart-status.js";
import { describeServerExit, startServerProcess, type ServerProcess } from "./server-process.js";
import type { ServerSupervisorOptions, SupervisorEvent, SupervisorState } from "./supervisor-types.js";

/** What the supervisor knows, shared by its loop and each run. */
export interface Supervision {
  readonly options: ServerSupervisorOptions;
  readonly clocks: { agent: Clock; real: Clock };
  readonly log: Logger;
  backoff: RestartBackoff;
  wanted: boolean;
  closed: boolean;
  state: SupervisorState;
  current: ServerProcess | undefined;
  /** Servers stopped on purpose (restart, disable): their exit is not a failure. */
  readonly stopping: WeakSet<ServerProcess>;
  servingPid: number | undefined;
  /** Wakes the loop out of a wait (backoff, nothing installed) when something changed. */
  wake: () => void;
  /** Tells every listener, and resolves once all of them are done. */
  emit(event: SupervisorEvent): Promise<void>;
}

export async function runServer(s: Supervision, executable: string): Promise<void> {
  const { options, log } = s;
  const { agent, real } = s.clocks;
  // The server keeps its module folders in its temporary folder: the one its environment names.
  await sweepModuleFolders({ base: temporaryFolderOf(options.env ?? process.env), logger: log }).catch((error: Error) =>
    log.error(`cannot sweep what an earlier svc-server left: ${error.message}`),
  );
  const startedAt = real.now();
  const server = startServerProcess({ executable, configFile: options.configFile, pidFile: options.pidFile, env: options.env, clock: real, ...options.output });
  s.current = server;
  s.state = "starting";
  log.info(`starting svc-server ${executable} (pid ${server.pid})`);
  await s.emit({ kind: "starting", executable, pid: server.pid });

  const timeoutMs = options.startTimeoutMs();
  const served = await waitUntilServing(s, server, timeoutMs);
  if (served === "timeout") {
    log.warn(`svc-server did not serve within ${timeoutMs} ms; killing it`);
    await server.stop(options.stopGraceMs);
    s.current = undefined;
    // The loop then starts whatever is current once the listeners are done: the same version
    // again, or the one a rollback went back to.
    await s.emit({ kind: "start-timeout", executable, timeoutMs });
    return;
  }
  if (served === "serving") {
    s.servingPid = server.pid;
    s.state = "running";
    s.backoff.started(agent.now());
    log.info(`svc-server serves (pid ${server.pid}, ${real.now() - startedAt} ms after start)`);
    await s.emit({ kind: "started", executable, pid: server.pid, afterMs: real.now() - startedAt });
  }
  const exit = await server.exited;
  s.current = undefined;
  s.servingPid = undefined;
  if (!s.wanted || s.stopping.has(server)) return;
  // It stopped to be started again (a restart svc-cloud asked for): no failure, no wait, nothing
  // for a probation to count against the version.
  if (exit.code === RESTART_EXIT_CODE && !exit.signal) {
    log.info("svc-server stopped to restart; starting it again");
    return;
  }
  const how = describeServerExit(exit);
  await s.emit({ kind: "exited", executable, how, ranMs: real.now() - startedAt });
  // Another version is current now (a rollback, an upgrade): it has not failed, start it at once.
  if (!s.wanted || s.closed || options.executable() !== executable) return;
  const delay = s.backoff.failed(agent.now());
  log.warn(`svc-server ${how}; starting it again in ${delay} ms`);
  s.state = "waiting";
  await pause(s, agent, delay);
}

// The start timeout runs on the agent clock; the polls of /restart_status on real time.
async function waitUntilServing(s: Supervision, server: ServerProcess, timeoutMs: number): Promise<"serving" | "exited" | "timeout"> {
  const { agent, real } = s.clocks;
  const deadline = agent.now() + timeoutMs;
  const pollMs = s.options.pollMs ?? 100;
  for (;;) {
    if (server.hasExited()) return "exited";
    if (await fetchRestartStatus(s.options.restartStatusUrl(), Math.max(200, pollMs * 5))) return "serving";
    if (server.hasExited()) return "exited";
    if (agent.now() >= deadline) return "timeout";
    let timer: unknown;
    await Promise.race([server.exited, new Promise<void>((resolve) => (timer = real.setTimeout(resolve, pollMs)))]);
    real.clearTimeout(timer);
  }
}

/** Waits `ms` on `clock`, or until `s.wake()`. */
export function pause(s: Supervision, clock: Clock, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = clock.setTimeout(done, ms);
    function done() {
      clock.clearTimeout(timer);
      s.wake = () => {};
      resolve();
    }
    s.wake = done;
  });
}

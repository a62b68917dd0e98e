// One configured process, kept as its entry asks. A one-shot process runs once: its exit is
// logged, a failure as an error with its exit code and last stderr lines, and it is not run
// again until its entry changes. Any other process is started again whenever it exits, after
// the restart backoff (the modules' one: 100 ms doubling to 30 s, reset after a healthy minute),
// and each restart is logged. A program that cannot be started is said once per reason and tried
// again on the same backoff, so it starts soon after it appears. Stopping ends the wait for a
// restart and stops the run with the entry's stop signal, then SIGKILL after its stop timeout.
import { errorMessage, type ProcessConfig } from "../../../core/index.js";
import { createRestartBackoff, type RestartBackoff } from "../modules/index.js";
import { ProcessSpawnError } from "./process-program.js";
import { describeExit, startProcessRun, type ProcessRun, type ProcessRunOptions } from "./process-run.js";

export type ProcessState = "STARTING" | "RUNNING" | "RESTARTING" | "DONE" | "FAILED" | "STOPPED";

export interface ProcessStatus {
  id: string;
  state: ProcessState;
  pid?: number;
  /** Why it last failed or could not start. */
  error?: string;
  restarts: number;
}

/** What each run of the process is started with; `log` (`process.<id>`) also tells its story. */
export type ProcessSupervisorOptions = ProcessRunOptions;

export interface ProcessSupervisor {
  readonly config: ProcessConfig;
  status(): ProcessStatus;
  /** Resolves once the run in progress has exited (a one-shot's run, or a stop). */
  stop(): Promise<void>;
}

/** What one supervisor knows; its loop and its stop both take it. */
interface Supervised {
  readonly options: ProcessSupervisorOptions;
  readonly quoted: string;
  readonly backoff: RestartBackoff;
  state: ProcessState;
  error: string | undefined;
  restarts: number;
  run: ProcessRun | undefined;
  stopping: boolean;
  /** Ends a wait for the next start early (the process is being stopped). */
  wake: (() => void) | undefined;
  /** The last reason it could not be started, so a retry that fails alike stays quiet. */
  spawnProblem: string | undefined;
}

export function superviseProcess(options: ProcessSupervisorOptions): ProcessSupervisor {
  const s: Supervised = {
    options,
    quoted: JSON.stringify(options.config.id),
    backoff: createRestartBackoff(),
    state: "STARTING",
    error: undefined,
    restarts: 0,
    run: undefined,
    stopping: false,
    wake: undefined,
    spawnProblem: undefined,
  };
  const looping = options.config.one_shot ? runOnce(s) : keepRunning(s);
  return {
    config: options.config,
    status() {
      const status: ProcessStatus = { id: options.config.id, state: s.state, restarts: s.restarts };
      if (s.run && !s.run.hasExited()) status.pid = s.run.pid;
      if (s.error !== undefined) status.error = s.error;
      return status;
    },
    async stop() {
      if (!s.stopping) {
        s.stopping = true;
        s.wake?.();
        const run = s.run;
        if (run && !run.hasExited()) {
          options.log.info(`stopping process ${s.quoted} (pid ${run.pid}) with ${options.config.stop_signal_name}`, {
            stop_timeout: options.config.stop_timeout,
          });
          const exit = await run.stop();
          if (exit.signal === "SIGKILL" && options.config.stop_signal_name !== "SIGKILL") {
            options.log.warn(`process ${s.quoted} did not stop within ${options.config.stop_timeout} of ${options.config.stop_signal_name}: killed`);
          }
        }
      }
      await looping;
      s.state = "STOPPED";
    },
  };
}

/** A one-shot process: one run, its outcome logged. */
async function runOnce(s: Supervised): Promise<void> {
  const { log } = s.options;
  const exit = await startRun(s).then((run) => run?.exited);
  if (!exit || s.stopping) return;
  if (exit.code === 0) {
    s.state = "DONE";
    log.info(`one-shot process ${s.quoted} finished`);
    return;
  }
  s.state = "FAILED";
  s.error = describeExit(exit);
  log.error(`one-shot process ${s.quoted} failed: it ${s.error}`, { exit_code: exit.code, signal: exit.signal, stderr: exit.stderr });
}

/** A long-running process: started again after each exit, with the backoff between runs. */
async function keepRunning(s: Supervised): Promise<void> {
  const { log, clock } = s.options;
  while (!s.stopping) {
    const run = await startRun(s);
    let why: string;
    if (run) {
      const exit = await run.exited;
      if (s.stopping) break;
      why = `it ${describeExit(exit)}`;
    } else {
      if (s.stopping) break;
      why = s.error ?? "it could not be started";
    }
    const delay = s.backoff.failed(clock.now());
    s.state = "RESTARTING";
    s.error = why;
    s.restarts++;
    if (run) {
      log.error(`process ${s.quoted} exited: ${why}; restarting in ${delay} ms`, {
        consecutive_failures: s.backoff.consecutiveFailures(clock.now()),
        restart_in_ms: delay,
      });
    }
    await pause(s, delay);
  }
}

/** Starts a run, or says (once per reason) why it cannot be started and returns undefined. */
async function startRun(s: Supervised): Promise<ProcessRun | undefined> {
  const { config, log, clock } = s.options;
  if (s.stopping) return undefined;
  s.state = "STARTING";
  try {
    const run = await startProcessRun(s.options);
    s.run = run;
    s.spawnProblem = undefined;
    s.backoff.started(clock.now());
    s.state = "RUNNING";
    const again = s.restarts > 0 ? ` again (restart ${s.restarts})` : "";
    log.info(`process ${s.quoted} started${again}`, { pid: run.pid, name: config.name });
    // Stopped while it was starting: the stop found no run to end, so end this one.
    if (s.stopping) await run.stop();
    return run;
  } catch (thrown) {
    const reason = thrown instanceof ProcessSpawnError ? thrown.message : errorMessage(thrown);
    s.state = "FAILED";
    s.error = reason;
    if (reason !== s.spawnProblem) log.error(`process ${s.quoted} cannot start: ${reason}`);
    s.spawnProblem = reason;
    return undefined;
  }
}

/** Waits `ms`, or until the process is stopped. */
function pause(s: Supervised, ms: number): Promise<void> {
  const { clock } = s.options;
  return new Promise<void>((resolve) => {
    const timer = clock.setTimeout(resolve, ms);
    s.wake = () => {
      clock.clearTimeout(timer);
      resolve();
    };
  }).finally(() => (s.wake = undefined));
}

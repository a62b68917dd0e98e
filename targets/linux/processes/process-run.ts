// One run of a configured process. It is started in its own process group, so stopping it
// reaches whatever it started and a terminal's Ctrl-C reaches only svc-server, which stops its
// processes in order. The group is written down while it runs (in the folder the module groups
// are written in), so what a killed svc-server leaves is stopped by the next one. Its output is
// read line by line, each line at most 64 KiB: with `log` on, stdout lines are info and stderr
// lines errors; the last stderr lines are always kept, for the message when it fails. Its
// environment is svc-server's with the entry's `env` over it; neither is ever logged.
import { spawn, type ChildProcess } from "node:child_process";
import type { Clock, Logger, ProcessConfig } from "../../../core/index.js";
import { followLines, MAX_OUTPUT_LINE_BYTES } from "../system/index.js";
import { programProblem, ProcessSpawnError, spawnProblem, workingDirectoryProblem } from "./process-program.js";

/** How many of the last stderr lines a failure message may quote. */
export const STDERR_TAIL_LINES = 20;

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The last lines the process wrote on stderr, oldest first. */
  stderr: string[];
}

export interface ProcessRunOptions {
  config: ProcessConfig;
  /** The working directory, resolved. */
  cwd: string;
  /** Its output lines, when `log` is on. */
  log: Logger;
  stderrLog: Logger;
  /** Writes down the process group while it runs; returns what forgets it. */
  recordGroup?: (pid: number) => () => void;
  clock: Clock;
}

export interface ProcessRun {
  readonly pid: number;
  /** Resolves when the process has exited, for any reason. */
  readonly exited: Promise<ProcessExit>;
  hasExited(): boolean;
  /** The entry's stop signal to the group, SIGKILL after its stop timeout; resolves with the exit. */
  stop(): Promise<ProcessExit>;
}

/** "exited with code 2" / "was killed by SIGKILL", and the last stderr lines when there are some. */
export function describeExit(exit: ProcessExit): string {
  const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
  const last = exit.stderr.length ? `: ${exit.stderr.slice(-3).join(" | ")}` : "";
  return `${how}${last}`;
}

/** Starts the process; a ProcessSpawnError, saying why, when it cannot be started. */
export async function startProcessRun(options: ProcessRunOptions): Promise<ProcessRun> {
  const { config, cwd } = options;
  const env = { ...process.env, ...config.env };
  const problem = (await workingDirectoryProblem(cwd)) ?? (await programProblem(config.name, cwd, env.PATH));
  if (problem !== undefined) throw new ProcessSpawnError(problem);
  const child: ChildProcess = spawn(config.name, config.args, {
    cwd,
    env,
    stdio: ["ignore", config.log ? "pipe" : "ignore", "pipe"],
    detached: true,
  });
  if (child.pid === undefined) {
    // The system refused to start it (the error comes on the next tick): no process, no run.
    const error = await new Promise<NodeJS.ErrnoException>((resolve) => child.once("error", resolve));
    for (const stream of child.stdio) stream?.destroy();
    throw new ProcessSpawnError(spawnProblem(config.name, error));
  }
  const pid = child.pid;
  const forgetGroup = options.recordGroup?.(pid) ?? (() => {});
  const tail = followOutput(child, options);
  let exit: ProcessExit | undefined;
  const exited = new Promise<ProcessExit>((resolve) => {
    // Whatever it started and left behind goes with it: a child still holding its output would
    // otherwise keep "close" from ever coming, and nothing of a run outlives the run.
    child.once("exit", () => killGroup(pid, "SIGKILL"));
    // "close" waits for the output to drain, so the last stderr lines are in the tail.
    child.once("close", (code: number | null, signal: NodeJS.Signals | null) => {
      exit ??= { code, signal, stderr: tail.slice() };
      killGroup(pid, "SIGKILL");
      forgetGroup();
      resolve(exit);
    });
    // After a start, an error is a signal that could not be sent; "close" still comes.
    child.on("error", (error) => options.stderrLog.error(`${config.name}: ${error.message}`));
  });

  return {
    pid,
    exited,
    hasExited: () => exit !== undefined,
    async stop() {
      if (exit) return exit;
      killGroup(pid, config.stop_signal_name);
      const timer = options.clock.setTimeout(() => {
        if (!exit) killGroup(pid, "SIGKILL");
      }, config.stop_timeout_ms);
      const result = await exited;
      options.clock.clearTimeout(timer);
      return result;
    },
  };
}

/** Follows stdout and stderr into the loggers (with `log` on); returns the stderr tail it keeps. */
function followOutput(child: ChildProcess, options: ProcessRunOptions): string[] {
  const { config, log, stderrLog } = options;
  const tail: string[] = [];
  const dropped = (stream: string) => (bytes: number) => {
    if (!config.log) return;
    log.warn(
      `the process wrote a line longer than ${MAX_OUTPUT_LINE_BYTES} bytes on ${stream}: its first ${MAX_OUTPUT_LINE_BYTES} bytes are logged, the next ${bytes} were dropped`,
      { stream, dropped_bytes: bytes },
    );
  };
  if (child.stdout) {
    followLines(child.stdout, MAX_OUTPUT_LINE_BYTES, (line) => {
      if (line !== "") log.info(line);
    }, dropped("stdout"));
  }
  if (child.stderr) {
    followLines(child.stderr, MAX_OUTPUT_LINE_BYTES, (line) => {
      if (line === "") return;
      tail.push(line);
      if (tail.length > STDERR_TAIL_LINES) tail.shift();
      if (config.log) stderrLog.error(line);
    }, dropped("stderr"));
  }
  return tail;
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

// One run of a module's executable. It is started in its own process group (so stopping it
// reaches whatever it started, and a terminal's Ctrl-C reaches only svc-server, which stops
// modules in order), with its socket path and log level as arguments, and with a pipe on fd 3:
// when svc-server dies, even by SIGKILL, the pipe closes and the module (through the module SDK,
// or any code watching fd 3) knows to exit. A module that says on that pipe that it follows level
// changes is sent each new level there (see parent-channel.ts). The group is written down in the
// module folder while it runs, so what a killed svc-server leaves is stopped by the next one
// (see module-sockets.ts). An executable that cannot be started is a ModuleSpawnError, not a run.
import { spawn, type ChildProcess } from "node:child_process";
import { stat } from "node:fs/promises";
import type { Duplex } from "node:stream";
import { sleep, type Clock, type LogLevel } from "../../../core/index.js";
import { executableProblem, ModuleSpawnError, SCRIPT, spawnProblem } from "./module-executable.js";
import { followModuleOutput, type ModuleLoggers, type ModuleOutput } from "./module-output.js";
import { createParentChannel, FOLLOWS_LOG_LEVEL, type ParentChannel } from "./parent-channel.js";

/** The file descriptor of the pipe that closes when svc-server is gone. */
export const PARENT_PIPE_FD = 3;

export interface ModuleExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The module's last stderr lines. */
  stderr: string[];
}

export interface ModuleProcessOptions {
  executable: string;
  socketPath: string;
  logLevel: LogLevel;
  /** The module's folder: its working directory and SVC_MODULE_ROOT. */
  root: string;
  /** The configuration's `env`, over svc-server's own environment. */
  env: Record<string, string>;
  loggers: ModuleLoggers;
  /** Where the executable's path came from, for messages: `executable_path`, or a package's entrypoint. */
  setting?: string;
  /** Writes down the module's process group while it runs; returns what forgets it. */
  recordGroup?: (pid: number) => () => void;
  /** For the socket wait and the grace before SIGKILL. */
  clock: Clock;
}

export interface ModuleProcess {
  readonly pid: number;
  /** Resolves when the process has exited, for any reason. */
  readonly exited: Promise<ModuleExit>;
  hasExited(): boolean;
  /**
   * Sends the module a new level when it follows level changes, and says whether it does (or
   * already logs at that level); one that does not keeps its start-up level until it runs again.
   */
  setLogLevel(level: LogLevel): boolean;
  /** Resolves once the module listens on its socket; rejects if it exits first or `timeoutMs` passes. */
  waitForSocket(timeoutMs: number): Promise<void>;
  /** SIGTERM to the process group, SIGKILL after `graceMs`; resolves with the exit. */
  stop(graceMs: number): Promise<ModuleExit>;
}

export class ModuleStartError extends Error {
  override name = "ModuleStartError";
}

/** "exited with code 2" / "was killed by SIGKILL", and the last stderr line when there is one. */
export function describeExit(exit: ModuleExit): string {
  const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
  const last = exit.stderr.length ? `: ${exit.stderr.slice(-3).join(" | ")}` : "";
  return `${how}${last}`;
}

function commandOf(executable: string, args: string[]): [string, string[]] {
  return SCRIPT.test(executable) ? [process.execPath, [executable, ...args]] : [executable, args];
}

/** Starts the module; a ModuleSpawnError, saying why, when its executable cannot be started. */
export async function startModuleProcess(options: ModuleProcessOptions): Promise<ModuleProcess> {
  const setting = options.setting ?? "executable_path";
  const problem = await executableProblem(options.executable, setting);
  if (problem !== undefined) throw new ModuleSpawnError(problem);
  const [command, args] = commandOf(options.executable, [options.socketPath, `--log-level=${options.logLevel}`]);
  const child: ChildProcess = spawn(command, args, {
    cwd: options.root,
    env: {
      ...process.env,
      ...options.env,
      SVC_MODULE_ROOT: options.root,
      SVC_MODULE_ADDRESS: options.socketPath,
      SVC_MODULE_PARENT_FD: String(PARENT_PIPE_FD),
    },
    stdio: ["ignore", "pipe", "pipe", "pipe"],
    detached: true,
  });
  if (child.pid === undefined) {
    // The system refused to start it (the error comes on the next tick): no process, no run.
    const error = await new Promise<NodeJS.ErrnoException>((resolve) => child.once("error", resolve));
    for (const stream of child.stdio) stream?.destroy();
    throw new ModuleSpawnError(spawnProblem(options.executable, setting, error));
  }
  const pid = child.pid;
  const forgetGroup = options.recordGroup?.(pid) ?? (() => {});
  let output: ModuleOutput | undefined;
  if (child.stdout && child.stderr) output = followModuleOutput(child.stdout, child.stderr, options.loggers);
  // The level the module logs at: the one it started with, then the last one it was sent.
  let level = options.logLevel;
  let followsLevel = false;
  const pipe = child.stdio[PARENT_PIPE_FD] as Duplex | null | undefined;
  const channel: ParentChannel | undefined = pipe
    ? createParentChannel(pipe, (message) => {
        if ("follows" in message && message.follows.includes(FOLLOWS_LOG_LEVEL)) followsLevel = true;
      })
    : undefined;
  let exit: ModuleExit | undefined;
  const exited = new Promise<ModuleExit>((resolve) => {
    const done = (code: number | null, signal: NodeJS.Signals | null) => {
      exit ??= { code, signal, stderr: output?.stderrTail() ?? [] };
      killGroup(pid, "SIGKILL");
      forgetGroup();
      resolve(exit);
    };
    // Whatever the module started and left behind goes with it, at once: a child still holding
    // the module's output would otherwise keep "close" from ever coming.
    child.once("exit", () => killGroup(pid, "SIGKILL"));
    // "close" waits for the output to drain, so the last stderr lines are in the tail.
    child.once("close", done);
    // After a start, an error is a signal that could not be sent; "close" still comes.
    child.on("error", (error) => options.loggers.stderr(`${options.executable}: ${error.message}`));
  });

  function signalGroup(signal: NodeJS.Signals): void {
    if (!exit) killGroup(pid, signal);
  }

  return {
    pid,
    exited,
    hasExited: () => exit !== undefined,
    setLogLevel(next) {
      if (next === level) return true;
      if (!followsLevel || !channel || exit) return false;
      channel.send({ log_level: next });
      level = next;
      return true;
    },
    async waitForSocket(timeoutMs) {
      const { clock } = options;
      const deadline = clock.now() + timeoutMs;
      for (;;) {
        if (exit) throw new ModuleStartError(`${describeExit(exit)} before listening on its socket`);
        const found = await stat(options.socketPath).catch(() => undefined);
        if (found?.isSocket()) return;
        if (clock.now() >= deadline) throw new ModuleStartError(`did not listen on ${options.socketPath} within ${timeoutMs} ms`);
        await Promise.race([exited, sleep(clock, 20)]);
      }
    },
    async stop(graceMs) {
      if (exit) return exit;
      signalGroup("SIGTERM");
      const timer = options.clock.setTimeout(() => signalGroup("SIGKILL"), graceMs);
      const result = await exited;
      options.clock.clearTimeout(timer);
      return result;
    },
  };
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

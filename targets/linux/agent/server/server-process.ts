// One run of svc-server under the agent: `<executable> -config <file>`, in its own process group so
// a stop reaches whatever it started, with its stdout passed through (under systemd: the journal)
// and the tail of its stderr kept to say why it stopped. Its PID is written down, so an agent
// killed without warning can find the server it left behind (see orphan-server.ts).
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { Clock } from "../../../../core/index.js";
import { createNodeClock } from "../../logging/node-clock.js";

export interface ServerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The last lines it wrote to stderr. */
  stderr: string[];
}

export interface ServerProcess {
  readonly pid: number;
  readonly executable: string;
  readonly exited: Promise<ServerExit>;
  hasExited(): boolean;
  /** SIGTERM to the group, SIGKILL after `graceMs`; resolves with the exit. */
  stop(graceMs: number): Promise<ServerExit>;
}

export interface ServerProcessOptions {
  executable: string;
  configFile: string;
  /** Where the PID is written while the server runs. */
  pidFile: string;
  env?: Record<string, string | undefined>;
  /** Where the server's output goes (the agent's own stdout and stderr by default). */
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
  /** Real time, for the grace before SIGKILL. */
  clock?: Clock;
}

const STDERR_TAIL_LINES = 5;

export function startServerProcess(options: ServerProcessOptions): ServerProcess {
  const child = spawn(options.executable, ["-config", options.configFile], {
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
    env: options.env ?? process.env,
  });
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const clock = options.clock ?? createNodeClock({ keepAlive: true });
  const tail: string[] = [];
  let partial = "";
  child.stdout?.on("data", (chunk: Buffer) => stdout.write(chunk));
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr.write(chunk);
    const lines = (partial + chunk.toString("utf8")).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) if (line.trim() !== "") tail.push(line);
    tail.splice(0, Math.max(0, tail.length - STDERR_TAIL_LINES));
  });

  if (child.pid !== undefined) {
    mkdirSync(dirname(options.pidFile), { recursive: true });
    writeFileSync(options.pidFile, `${child.pid}\n`);
  }
  let exit: ServerExit | undefined;
  const exited = new Promise<ServerExit>((resolve) => {
    const done = (code: number | null, signal: NodeJS.Signals | null) => {
      exit ??= { code, signal, stderr: partial.trim() ? [...tail, partial] : [...tail] };
      signalGroup(child.pid, "SIGKILL");
      rmSync(options.pidFile, { force: true });
      resolve(exit);
    };
    child.once("close", done);
    child.once("error", (error) => {
      exit ??= { code: null, signal: null, stderr: [`cannot start ${options.executable}: ${error.message}`] };
      rmSync(options.pidFile, { force: true });
      resolve(exit);
    });
  });

  return {
    pid: child.pid ?? -1,
    executable: options.executable,
    exited,
    hasExited: () => exit !== undefined,
    async stop(graceMs) {
      if (exit) return exit;
      signalGroup(child.pid, "SIGTERM");
      const timer = clock.setTimeout(() => signalGroup(child.pid, "SIGKILL"), graceMs);
      const result = await exited;
      clock.clearTimeout(timer);
      return result;
    },
  };
}

/** "exited with code 2" / "was killed by SIGKILL", with its last stderr line. */
export function describeServerExit(exit: ServerExit): string {
  const how = exit.signal ? `was killed by ${exit.signal}` : exit.code === null ? "could not start" : `exited with code ${exit.code}`;
  const last = exit.stderr.length ? `: ${exit.stderr[exit.stderr.length - 1]}` : "";
  return `${how}${last}`;
}

export function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

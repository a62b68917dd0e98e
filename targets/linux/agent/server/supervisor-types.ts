// The server supervisor's shapes: its options, the events it reports, the face it shows.
import type { Clock, Logger } from "../../../../core/index.js";

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
  /** `viam_server_start_timeout_minutes`, on the agent clock. */
  startTimeoutMs(): number;
  /** Restart backoff on the agent clock: first delay, cap, and how long up counts as healthy. */
  backoff: { initialMs: number; maxMs: number; healthyMs: number };
  /** How long a stopping server gets before SIGKILL (real time). */
  stopGraceMs: number;
  logger: Logger;
  env?: Record<string, string | undefined>;
  /** Where the server's output goes; the agent's own stdout and stderr by default. */
  output?: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream };
  /** Readiness poll interval (real time). Default 100 ms. */
  pollMs?: number;
  /** The agent clock (start timeout, backoff) and real time; both Node's by default. */
  clocks?: { agent: Clock; real: Clock };
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

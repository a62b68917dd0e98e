// SIGINT and SIGTERM: the first one shuts the machine down in order (stop accepting calls, close
// resources dependents-first) and exits 0, or 1 when the shutdown fails. If it is not done by the
// deadline, the process exits 1; a second signal exits at once with 128 + the signal number
// (130 for SIGINT, 143 for SIGTERM), as a shell reports a process killed by it.
import { constants } from "node:os";
import { errorMessage } from "../../../../core/index.js";

export interface ShutdownSignalOptions {
  /** Stops the machine; its rejection is logged and exits 1. */
  onShutdown: (reason: string) => Promise<void>;
  /** How long the shutdown may take before the exit is forced. Default 30 s. */
  deadlineMs?: number;
  /** Default process.exit. */
  exit?: (code: number) => void;
  /** One line per event. Default: to stderr. */
  log?: (line: string) => void;
  /** Default SIGINT and SIGTERM. */
  signals?: readonly NodeJS.Signals[];
}

export interface ShutdownSignals {
  /**
   * Starts the same shutdown without a signal (the Shutdown RPC; a restart svc-cloud asked for,
   * which exits with `exitCode` once the shutdown went well); later signals force it.
   */
  begin(reason: string, exitCode?: number): void;
  /** Removes the signal handlers. */
  dispose(): void;
}

export function handleShutdownSignals(options: ShutdownSignalOptions): ShutdownSignals {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const log = options.log ?? ((line: string) => void process.stderr.write(`svc-server: ${line}\n`));
  const deadlineMs = options.deadlineMs ?? 30_000;
  const signals = options.signals ?? ["SIGINT", "SIGTERM"];
  let shuttingDown = false;
  let exited = false;
  let deadline: NodeJS.Timeout | undefined;

  const finish = (code: number) => {
    if (exited) return;
    exited = true;
    clearTimeout(deadline);
    exit(code);
  };

  function begin(reason: string, exitCode = 0): void {
    if (shuttingDown) return;
    shuttingDown = true;
    log(`${reason}: shutting down (a second signal forces the exit)`);
    deadline = setTimeout(() => {
      log(`shutdown not finished after ${deadlineMs} ms: forcing the exit`);
      finish(1);
    }, deadlineMs);
    let done: Promise<void>;
    try {
      done = Promise.resolve(options.onShutdown(reason));
    } catch (error) {
      done = Promise.reject(error);
    }
    done.then(
      () => finish(exitCode),
      (error: unknown) => {
        log(`shutdown failed: ${errorMessage(error)}`);
        finish(1);
      },
    );
  }

  const onSignal = (signal: NodeJS.Signals) => {
    if (!shuttingDown) return begin(`received ${signal}`);
    log(`received ${signal} again: exiting now`);
    finish(128 + (constants.signals[signal] ?? 1));
  };
  for (const signal of signals) process.on(signal, onSignal);

  return {
    begin,
    dispose() {
      for (const signal of signals) process.off(signal, onSignal);
    },
  };
}

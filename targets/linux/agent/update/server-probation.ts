// The probation of a newly activated svc-server version, judged from the supervisor's events by
// core/agent's rollback judge: a version that does not serve within the start timeout, or stops
// repeatedly in its first minutes, is marked bad and `current` goes back to the previous version.
// The supervisor waits for the verdict before it starts a server again, so a version that failed
// is killed once and never started again: the next start is the version rolled back to.
import { createRollbackJudge, errorMessage, type Clock, type Logger, type ProbationRules, type ProbationVerdict, type RollbackJudge } from "../../../../core/index.js";
import type { ServerSupervisor, SupervisorEvent } from "../server/server-supervisor.js";
import type { UpdateStateFile } from "./update-state.js";

export interface ServerProbationOptions {
  versions: {
    current(): Promise<string | undefined>;
    /** Points current back at previous; returns the version now current. */
    rollback(): Promise<string>;
    markBad(version: string, reason: string): Promise<void>;
  };
  supervisor: ServerSupervisor;
  state: UpdateStateFile;
  /** Start timeout and probation rules, on `clock`. */
  rules(): ProbationRules;
  /** The agent clock. */
  clock: Clock;
  /** Runs a rollback in turn with the activations. */
  inTurn(work: () => Promise<void>): Promise<void>;
  logger: Logger;
}

export interface ServerProbation {
  /** `version` was activated (now, or before the agent restarted): it is on probation from now. */
  start(version: string): void;
  close(): void;
}

export function createServerProbation(options: ServerProbationOptions): ServerProbation {
  const { versions, supervisor, state, clock, logger: log } = options;
  let judge: RollbackJudge | undefined;
  // Timers that end a probation nothing else ends; cleared on close so they hold nothing open.
  const endTimers = new Set<unknown>();

  async function judgeEvent(event: SupervisorEvent): Promise<void> {
    if (!judge) return;
    const now = clock.now();
    let verdict: ProbationVerdict;
    if (event.kind === "started") verdict = judge.started(now);
    else if (event.kind === "exited") verdict = judge.exited(now, event.how);
    else if (event.kind === "start-timeout") verdict = judge.startTimedOut(now);
    else verdict = judge.verdict(now);
    if (verdict.kind === "on-probation") {
      if (event.kind === "started") watchProbationEnd(judge);
      return;
    }
    if (verdict.kind === "passed") return endProbation(judge);
    const version = judge.version;
    judge = undefined;
    await options.inTurn(() => rollBack(version, verdict.reason));
  }
  // Returned to the supervisor, which waits for it before its next start.
  const unsubscribe = supervisor.onEvent(judgeEvent);

  function watchProbationEnd(current: RollbackJudge): void {
    const { probationMs } = options.rules();
    const timer = clock.setTimeout(() => {
      endTimers.delete(timer);
      if (judge === current && current.verdict(clock.now()).kind === "passed") endProbation(current);
    }, probationMs + 10);
    endTimers.add(timer);
  }

  function endProbation(passed: RollbackJudge): void {
    log.info(`svc-server ${passed.version} passed its probation`);
    judge = undefined;
    try {
      const { probation: _, ...rest } = state.read();
      state.write(rest);
    } catch (error) {
      // Still written down as on probation, it is judged once more after a restart: no harm done.
      log.warn(`cannot record the end of the probation: ${errorMessage(error)}`);
    }
  }

  async function rollBack(version: string, reason: string): Promise<void> {
    try {
      await versions.markBad(version, reason);
      const { probation: _, ...rest } = state.read();
      state.write(rest);
      // Another switch may have come first (in turn); a version no longer current stays marked bad.
      if ((await versions.current()) !== version) return;
      const back = await versions.rollback();
      log.error(`${reason}; rolled back to svc-server ${back} and marked ${version} bad`);
      await supervisor.restart(`rolled back to ${back}`);
    } catch (error) {
      log.error(`${reason}; it cannot be rolled back: ${errorMessage(error)}`);
    }
  }

  return {
    start(version) {
      judge = createRollbackJudge(version, clock.now(), options.rules());
    },
    close() {
      unsubscribe();
      for (const timer of endTimers) clock.clearTimeout(timer);
      endTimers.clear();
    },
  };
}

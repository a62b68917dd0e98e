// Moving svc-server between versions. A new version is downloaded and verified as soon as a check
// finds it, then waits: with a maintenance window it is activated when the server's
// /restart_status allows a restart; without one, at the agent's next start. The first install
// (nothing current yet) is activated at once. An activated version is on probation: if it does
// not serve within the start timeout, or stops repeatedly in its first minutes, it is rolled back
// to the previous version and marked bad, so the same version is not tried again.
import { createRollbackJudge, type Logger, type ProbationVerdict, type RollbackJudge } from "../../../../core/index.js";
import { fetchRestartStatus } from "../server/restart-status.js";
import type { ServerEndpoint } from "../server/server-endpoint.js";
import type { ServerSupervisor, SupervisorEvent } from "../server/server-supervisor.js";
import type { UpdateStateFile } from "./update-state.js";

/** The installed versions of svc-server, as the version store keeps them on disk. */
export interface ServerVersions {
  current(): Promise<string | undefined>;
  activate(version: string): Promise<void>;
  /** Points current back at previous; returns the version now current. */
  rollback(): Promise<string>;
  markBad(version: string, reason: string): Promise<void>;
}

export interface ServerUpdatesOptions {
  versions: ServerVersions;
  supervisor: ServerSupervisor;
  state: UpdateStateFile;
  endpoint(): ServerEndpoint;
  /** Scaled start timeout and probation rules. */
  probation(): { startTimeoutMs: number; probationMs: number; maxCrashes: number };
  logger: Logger;
}

export interface ServerUpdates {
  /** At agent start, before the server starts: resumes a probation, activates a pending version. */
  resumeAtStart(): Promise<void>;
  /** A check prepared (installed) `version`; decides when it goes live. */
  prepared(version: string): Promise<void>;
  /** For a pending version and a maintenance window: activates it if the server allows a restart now. */
  tryPending(): Promise<"activated" | "waiting" | "none">;
  /** The version waiting to be activated, if any. */
  pending(): string | undefined;
  close(): void;
}

export function createServerUpdates(options: ServerUpdatesOptions): ServerUpdates {
  const { versions, supervisor, state, logger: log } = options;
  let judge: RollbackJudge | undefined;
  let rollingBack = false;

  function startProbation(version: string): void {
    judge = createRollbackJudge(version, Date.now(), options.probation());
  }
  const unsubscribe = supervisor.onEvent((event) => void judgeEvent(event));

  async function judgeEvent(event: SupervisorEvent): Promise<void> {
    if (!judge || rollingBack) return;
    const now = Date.now();
    let verdict: ProbationVerdict;
    if (event.kind === "started") verdict = judge.started(now);
    else if (event.kind === "exited") verdict = judge.exited(now, event.how);
    else if (event.kind === "start-timeout") verdict = judge.startTimedOut(now);
    else verdict = judge.verdict(now);
    if (verdict.kind === "on-probation") {
      if (event.kind === "started") watchProbationEnd(judge);
      return;
    }
    if (verdict.kind === "passed") return endProbation(`svc-server ${judge.version} passed its probation`);
    await rollBack(judge.version, verdict.reason);
  }

  function watchProbationEnd(current: RollbackJudge): void {
    const { probationMs } = options.probation();
    setTimeout(() => {
      if (judge === current && current.verdict(Date.now()).kind === "passed") endProbation(`svc-server ${current.version} passed its probation`);
    }, probationMs + 10).unref();
  }

  function endProbation(message: string): void {
    log.info(message);
    judge = undefined;
    const { probation: _, ...rest } = state.read();
    state.write(rest);
  }

  async function rollBack(version: string, reason: string): Promise<void> {
    rollingBack = true;
    judge = undefined;
    try {
      await versions.markBad(version, reason);
      const { probation: _, ...rest } = state.read();
      state.write(rest);
      let back: string;
      try {
        back = await versions.rollback();
      } catch (error) {
        log.error(`${reason}; marked bad, and it cannot be rolled back: ${(error as Error).message}`);
        return;
      }
      log.error(`${reason}; rolled back to svc-server ${back} and marked ${version} bad`);
      await supervisor.restart(`rolled back to ${back}`);
    } finally {
      rollingBack = false;
    }
  }

  async function activate(version: string, why: string): Promise<void> {
    const previous = await versions.current();
    // Probation is written down before the switch: a crash in between still judges the new one.
    state.write({ probation: { version, previous } });
    await versions.activate(version);
    startProbation(version);
    log.info(`activated svc-server ${version}${previous ? ` (was ${previous})` : ""}: ${why}`);
    await supervisor.restart(`svc-server ${version} activated`);
  }

  return {
    async resumeAtStart() {
      const current = await versions.current();
      // A version activated before the agent restarted is still on probation.
      const remembered = state.read().probation;
      if (remembered && remembered.version === current) startProbation(remembered.version);
      const pending = state.read().pendingServer;
      if (pending === undefined || pending === current) return;
      const previous = current;
      state.write({ probation: { version: pending, previous } });
      await versions.activate(pending);
      startProbation(pending);
      log.info(`activated svc-server ${pending} at agent start${previous ? ` (was ${previous})` : ""}`);
    },
    async prepared(version) {
      const current = await versions.current();
      if (version === current) return;
      if (current === undefined) {
        await activate(version, "first install");
        return;
      }
      const before = state.read();
      state.write({ ...before, pendingServer: version });
      if (before.pendingServer !== version) {
        log.info(
          options.endpoint().maintenanceConfigured
            ? `svc-server ${version} is ready; it is activated when the maintenance window allows a restart`
            : `svc-server ${version} is ready; it is activated at the agent's next start`,
        );
      }
      await this.tryPending();
    },
    async tryPending() {
      const pending = state.read().pendingServer;
      if (pending === undefined) return "none";
      if (pending === (await versions.current())) {
        const { pendingServer: _, ...rest } = state.read();
        state.write(rest);
        return "none";
      }
      const endpoint = options.endpoint();
      if (!endpoint.maintenanceConfigured) return "waiting";
      const status = await fetchRestartStatus(endpoint.restartStatusUrl);
      if (status && !status.restartAllowed) {
        log.debug(`svc-server ${pending} waits: ${status.reason || "restart not allowed"}`);
        return "waiting";
      }
      // A server that does not answer has nothing to protect from a restart.
      await activate(pending, status ? "the maintenance window allows a restart" : "svc-server is not serving");
      return "activated";
    },
    pending: () => state.read().pendingServer,
    close() {
      unsubscribe();
    },
  };
}

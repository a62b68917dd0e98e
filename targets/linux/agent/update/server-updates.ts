// Moving svc-server between versions. A new version is downloaded and verified as soon as a check
// finds it, then waits: with a maintenance window it is activated when the server's
// /restart_status allows a restart; without one, at the agent's next start. The first install
// (nothing current yet) is activated at once. An activated version is on probation
// (server-probation.ts), which may roll it back.
// Switches (activations and rollbacks) run one at a time, whoever asks for them (an update check,
// the maintenance poll, a configuration reload, a verdict), and none of them throws: a switch that
// fails is logged with its reason, the running version stays, and the next update check tries again.
import { createSerialQueue, errorMessage, type Clock, type Logger, type ProbationRules } from "../../../../core/index.js";
import { createNodeClock } from "../../logging/node-clock.js";
import { fetchRestartStatus } from "../server/restart-status.js";
import type { ServerEndpoint } from "../server/server-endpoint.js";
import type { ServerSupervisor } from "../server/server-supervisor.js";
import { createServerProbation } from "./server-probation.js";
import type { UpdateState, UpdateStateFile } from "./update-state.js";

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
  /** Start timeout and probation rules, on `clock`. */
  probation(): ProbationRules;
  /** The agent clock; Node's by default. */
  clock?: Clock;
  logger: Logger;
}

export interface ServerUpdates {
  /** At agent start, before the server starts: resumes a probation, activates a pending version. */
  resumeAtStart(): Promise<void>;
  /** A check prepared (installed) `version`; decides when it goes live. */
  prepared(version: string): Promise<void>;
  /** For a pending version and a maintenance window: activates it if the server allows a restart now. */
  tryPending(): Promise<"activated" | "waiting" | "none" | "failed">;
  /** The version waiting to be activated, if any. */
  pending(): string | undefined;
  close(): void;
}

export function createServerUpdates(options: ServerUpdatesOptions): ServerUpdates {
  const { versions, supervisor, state, logger: log } = options;
  const switches = createSerialQueue();
  const probation = createServerProbation({
    versions,
    supervisor,
    state,
    rules: options.probation,
    clock: options.clock ?? createNodeClock({ keepAlive: true }),
    inTurn: (work) => switches.run(work),
    logger: log,
  });

  /** Makes `version` current and starts its probation; false (and logged) when it could not. */
  async function activate(version: string, why: string, restart: boolean): Promise<boolean> {
    const before = state.read();
    const previous = await versions.current();
    try {
      // Probation is written down before the switch: a crash in between still judges the new one.
      state.write({ probation: { version, previous } });
      await versions.activate(version);
    } catch (error) {
      restoreAfterFailedActivation(before, previous);
      const stays = previous ? `svc-server ${previous} keeps running` : "no version is current yet";
      log.error(`cannot activate svc-server ${version}: ${errorMessage(error)}; ${stays}, and the next update check tries again`);
      return false;
    }
    probation.start(version);
    log.info(`activated svc-server ${version}${previous ? ` (was ${previous})` : ""}: ${why}`);
    if (restart) await supervisor.restart(`svc-server ${version} activated`);
    return true;
  }

  // The state as before, but with nothing pending: the next update check prepares the version
  // again (or a newer one) instead of every maintenance poll failing on it.
  function restoreAfterFailedActivation(before: UpdateState, current: string | undefined): void {
    const { pendingServer: _, probation: judged, ...rest } = before;
    try {
      state.write(judged?.version === current ? { ...rest, probation: judged } : rest);
    } catch {
      // Left naming a version that is not current, the probation is ignored at the next start.
    }
  }

  // Whether the pending version may go live now, and then activating it: one step, so two callers
  // cannot both find it pending and both activate it.
  async function activatePendingIfAllowed(): Promise<"activated" | "waiting" | "none" | "failed"> {
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
    const activated = await activate(pending, status ? "the maintenance window allows a restart" : "svc-server is not serving", true);
    return activated ? "activated" : "failed";
  }

  // Records a prepared version as pending, or activates it at once on a device that has none.
  async function recordPrepared(version: string): Promise<"pending" | "done"> {
    const current = await versions.current();
    if (version === current) return "done";
    if (current === undefined) {
      await activate(version, "first install", true);
      return "done";
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
    return "pending";
  }

  async function resume(): Promise<void> {
    const current = await versions.current();
    // A version activated before the agent restarted is still on probation.
    const remembered = state.read().probation;
    if (remembered && remembered.version === current) probation.start(remembered.version);
    const pending = state.read().pendingServer;
    if (pending === undefined || pending === current) return;
    await activate(pending, "at agent start", false);
  }

  /** Runs a switch in turn; an error it did not handle itself is logged, never thrown. */
  const inTurn = <T>(what: string, work: () => Promise<T>, otherwise: T): Promise<T> =>
    switches.run(work).catch((error: unknown) => {
      log.error(`${what}: ${errorMessage(error)}; the next update check tries again`);
      return otherwise;
    });

  return {
    resumeAtStart: () => inTurn("resuming the svc-server update", resume, undefined),
    async prepared(version) {
      const outcome = await inTurn(`svc-server ${version}`, () => recordPrepared(version), "done");
      if (outcome === "pending") await this.tryPending();
    },
    tryPending: () => inTurn("activating the pending svc-server", activatePendingIfAllowed, "failed"),
    pending: () => state.read().pendingServer,
    close() {
      probation.close();
    },
  };
}

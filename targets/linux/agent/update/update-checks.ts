// The agent's update checks as a job: one check at a time, whoever asks (the timer, a reload, the
// wait before the first start), a request during a check being served by that check's end; a
// check every few minutes, and while a server version waits for the maintenance window, a poll
// of the server. A check that finds a new agent version activates it and asks the agent to
// restart into it. A check never fails: the next one retries.
import { every, sleep, type Clock, type Logger } from "../../../../core/index.js";
import type { AgentConfigView } from "../agent-config-view.js";
import type { AgentPaths } from "../agent-paths.js";
import { createDownloadFailures, currentPlatform, type VersionStore } from "../releases/index.js";
import type { AgentSelfUpdate } from "./agent-self-update.js";
import type { ServerUpdates } from "./server-updates.js";
import { checkForUpdates } from "./update-check.js";
import { DOWNLOAD_RETRY_MINUTES, FIRST_CHECK_RETRY_MS, MAINTENANCE_POLL_MS, MINUTE_MS, UPDATE_CHECK_INTERVAL_MINUTES } from "./update-timing.js";

export interface UpdateChecksOptions {
  paths: AgentPaths;
  view: AgentConfigView;
  servers: VersionStore;
  agents: VersionStore;
  serverUpdates: ServerUpdates;
  selfUpdate: AgentSelfUpdate;
  /** The version of this agent. */
  runningVersion: string;
  /** A new agent version is active: the agent restarts into it. */
  restart(): void;
  /** The agent clock. */
  clock: Clock;
  logger: Logger;
}

export interface UpdateChecks {
  /** Checks now (or joins the check under way); resolves whether the release index could be read. */
  check(): Promise<boolean>;
  /**
   * Checks until the release index could be read, trying again every few seconds, but not past
   * `giveUpMs`: a device that stays offline still runs the version it has.
   */
  untilReached(giveUpMs: number): Promise<void>;
  /** Starts the periodic checks and the maintenance poll. */
  start(): void;
  /** Stops them and waits for a check under way. */
  stop(): Promise<void>;
}

export function createUpdateChecks(options: UpdateChecksOptions): UpdateChecks {
  const { paths, view, serverUpdates, clock, logger: log } = options;
  const platform = currentPlatform();
  const downloadRetry = {
    now: () => clock.now(),
    backoff: { initialMs: DOWNLOAD_RETRY_MINUTES.initial * MINUTE_MS, maxMs: DOWNLOAD_RETRY_MINUTES.max * MINUTE_MS },
  };
  const downloadFailures = {
    "svc-server": createDownloadFailures(paths, "svc-server", downloadRetry),
    agent: createDownloadFailures(paths, "agent", downloadRetry),
  };
  let checking: Promise<boolean> | undefined;
  let stopped = false;
  let timers: (() => void)[] = [];

  async function runCheck(): Promise<boolean> {
    const settings = view.settings();
    const result = await checkForUpdates({
      indexUrl: settings.releaseIndexUrl,
      versionControl: settings.agent.version_control,
      platform,
      servers: options.servers,
      agents: options.agents,
      downloadDir: paths.downloadDir,
      downloadFailures,
      logger: log.child("update"),
      pendingServer: serverUpdates.pending(),
    });
    if (stopped) return result.reachedIndex;
    if (result.server.kind === "ready") await serverUpdates.prepared(result.server.version);
    if (result.agent.kind === "ready" && result.agent.version !== options.runningVersion) {
      await options.selfUpdate.activate(result.agent.version);
      options.restart();
    }
    return result.reachedIndex;
  }

  const check = (): Promise<boolean> => {
    checking ??= runCheck()
      .catch((error: Error) => {
        log.error(`update check failed: ${error.message}`);
        return false;
      })
      .finally(() => (checking = undefined));
    return checking;
  };

  return {
    check,
    async untilReached(giveUpMs) {
      const giveUpAt = clock.now() + giveUpMs;
      for (;;) {
        const reached = await check();
        if (reached || stopped || clock.now() >= giveUpAt) return;
        await sleep(clock, FIRST_CHECK_RETRY_MS);
      }
    },
    start() {
      timers = [
        every(clock, UPDATE_CHECK_INTERVAL_MINUTES * MINUTE_MS, () => void check()),
        every(clock, MAINTENANCE_POLL_MS, () => {
          if (serverUpdates.pending() !== undefined) void serverUpdates.tryPending();
        }),
      ];
    },
    async stop() {
      stopped = true;
      for (const stop of timers.splice(0)) stop();
      await checking;
    },
  };
}

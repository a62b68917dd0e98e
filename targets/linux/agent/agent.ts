// The running agent, assembled: settings -> version stores -> server supervisor -> updates, system
// settings, log forwarding and the network. It starts svc-server at once or after the first update check,
// checks for updates periodically and whenever the configuration changes, follows
// `disable_viam_server`, and restarts itself into a new agent version when one is installed.
import { existsSync, readFileSync, realpathSync, unwatchFile, watchFile } from "node:fs";
import { join } from "node:path";
import type { AgentConfig, Logger } from "../../../core/index.js";
import type { CommandRunner } from "../system/index.js";
import type { AgentPaths } from "./agent-paths.js";
import { startAgentNetwork, type AgentNetwork } from "./network/agent-network.js";
import { createDownloadFailures, createVersionStore, currentPlatform } from "./releases/index.js";
import { stopOrphanServer } from "./server/orphan-server.js";
import { serverEndpointOf } from "./server/server-endpoint.js";
import { createServerSupervisor } from "./server/server-supervisor.js";
import { loadAgentSettings, type AgentSettings, type FlagSettings } from "./settings/index.js";
import { applySystemConfiguration, createJournalForwarder, type JournalForwarder } from "./system/index.js";
import type { TimeScale } from "./time-scale.js";
import { createAgentSelfUpdate } from "./update/agent-self-update.js";
import { createServerUpdates } from "./update/server-updates.js";
import { checkForUpdates } from "./update/update-check.js";
import { updateStateFile } from "./update/update-state.js";
import type { LogSink } from "../../../core/index.js";

/** How often the release index is read (scaled). */
export const UPDATE_CHECK_INTERVAL_MINUTES = 5;
/** While an update waits for the maintenance window, how often the server is asked (scaled). */
export const MAINTENANCE_POLL_MS = 10_000;
/** How long a new version (server or agent) must run before it counts as good (scaled). */
export const PROBATION_MINUTES = 5;
/** Exits within the probation that roll a new server version back. */
export const PROBATION_MAX_CRASHES = 3;
/** An artifact that did not match its index entry is downloaded again after this long, doubling up to the cap (scaled). */
export const DOWNLOAD_RETRY_MINUTES = { initial: 5, max: 24 * 60 };

export interface AgentOptions {
  paths: AgentPaths;
  timeScale: TimeScale;
  configFile: string;
  defaultsFile: string;
  flagLayer: FlagSettings;
  env: Record<string, string | undefined>;
  logger: Logger;
  /** Where forwarded system log entries go (the agent's log queue). */
  systemLogSink: LogSink;
  setDebug(debug: boolean): void;
  run: CommandRunner;
  /** The version of this agent. */
  version: string;
}

export interface RunningAgent {
  /** Resolves when the agent wants to end: "stop" (asked to), or "restart" into a new agent version. */
  readonly finished: Promise<"stop" | "restart">;
  /** Stops the server and everything the agent runs. */
  stop(): Promise<void>;
}

export async function startAgent(options: AgentOptions): Promise<RunningAgent> {
  const { paths, timeScale, logger: log } = options;
  const platform = currentPlatform();
  const servers = createVersionStore(paths, "svc-server");
  const agents = createVersionStore(paths, "agent");
  const downloadRetry = {
    now: Date.now,
    backoff: { initialMs: timeScale.minutes(DOWNLOAD_RETRY_MINUTES.initial), maxMs: timeScale.minutes(DOWNLOAD_RETRY_MINUTES.max) },
  };
  const downloadFailures = {
    "svc-server": createDownloadFailures(paths, "svc-server", downloadRetry),
    agent: createDownloadFailures(paths, "agent", downloadRetry),
  };
  const load = (): AgentSettings =>
    loadAgentSettings({ configFile: options.configFile, defaultsFile: options.defaultsFile, flagLayer: options.flagLayer, env: options.env, paths, logger: log });
  let settings = load();
  options.setDebug(settings.agent.advanced_settings.debug);
  const advanced = () => settings.agent.advanced_settings;
  const readConfigText = () => (existsSync(options.configFile) ? readFileSync(options.configFile, "utf8") : undefined);
  let endpoint = serverEndpointOf(readConfigText());

  const probationMs = timeScale.minutes(PROBATION_MINUTES);
  const selfUpdate = createAgentSelfUpdate({ agents, stateDir: paths.stateDir, runningVersion: options.version, probationMs, logger: log });
  await selfUpdate.resumeAtStart();

  const pidFile = join(paths.stateDir, "svc-server.pid");
  const orphan = await stopOrphanServer(pidFile, 20_000);
  if (orphan !== undefined) log.warn(`stopped svc-server (PID ${orphan}) left running by an earlier agent`);

  const supervisor = createServerSupervisor({
    // The version folder itself, not `current`: the running server keeps naming its own version
    // (in logs, in /proc) while `current` moves on.
    executable: () => (existsSync(paths.currentExecutable("svc-server")) ? realpathSync(paths.currentExecutable("svc-server")) : undefined),
    configFile: options.configFile,
    pidFile,
    restartStatusUrl: () => endpoint.restartStatusUrl,
    startTimeoutMs: () => timeScale.minutes(advanced().viam_server_start_timeout_minutes),
    backoff: { initialMs: timeScale.ms(1_000), maxMs: timeScale.ms(60_000), healthyMs: timeScale.minutes(1) },
    stopGraceMs: 30_000,
    logger: log.child("server"),
  });
  const serverUpdates = createServerUpdates({
    versions: servers,
    supervisor,
    state: updateStateFile(join(paths.stateDir, "update-state.json")),
    endpoint: () => endpoint,
    probation: () => ({
      startTimeoutMs: timeScale.minutes(advanced().viam_server_start_timeout_minutes),
      probationMs,
      maxCrashes: PROBATION_MAX_CRASHES,
    }),
    logger: log.child("update"),
  });
  await serverUpdates.resumeAtStart();

  let finish: (how: "stop" | "restart") => void = () => {};
  const finished = new Promise<"stop" | "restart">((resolve) => (finish = resolve));
  let stopping = false;
  let checking: Promise<boolean> | undefined;

  async function runCheck(): Promise<boolean> {
    const result = await checkForUpdates({
      indexUrl: settings.releaseIndexUrl,
      versionControl: settings.agent.version_control,
      platform,
      servers,
      agents,
      downloadDir: paths.downloadDir,
      downloadFailures,
      logger: log.child("update"),
      pendingServer: serverUpdates.pending(),
    });
    if (stopping) return result.reachedIndex;
    if (result.server.kind === "ready") await serverUpdates.prepared(result.server.version);
    if (result.agent.kind === "ready" && result.agent.version !== options.version) {
      await selfUpdate.activate(result.agent.version);
      finish("restart");
    }
    return result.reachedIndex;
  }
  // One check at a time, whoever asks (the timer, a reload, the wait before the first start); a
  // request during a check is served by that check's end. It never fails: the next one retries.
  // Resolves whether the release index could be read.
  const check = (): Promise<boolean> => {
    checking ??= runCheck()
      .catch((error: Error) => {
        log.error(`update check failed: ${error.message}`);
        return false;
      })
      .finally(() => (checking = undefined));
    return checking;
  };

  let forwarder: JournalForwarder | undefined;
  let forwarding = "";
  async function applySystem(agent: AgentConfig): Promise<void> {
    const changes = await applySystemConfiguration(agent.system_configuration, {
      root: paths.root,
      run: options.run,
      logger: log.child("system"),
      disabled: agent.advanced_settings.disable_system_configuration,
    });
    for (const problem of changes.problems) log.warn(`system configuration: ${problem}`);
    const filter = agent.system_configuration.forward_system_logs;
    const wanted = agent.advanced_settings.disable_system_configuration || (!filter.all && filter.include.length === 0) ? "" : JSON.stringify(filter);
    if (wanted === forwarding) return;
    await forwarder?.stop();
    forwarder = undefined;
    forwarding = wanted;
    if (wanted) forwarder = createJournalForwarder({ filter, sink: options.systemLogSink, logger: log.child("system") });
  }

  function followServerSwitch(): void {
    if (advanced().disable_viam_server) {
      if (supervisor.state() !== "stopped") log.info("disable_viam_server is set: stopping svc-server and keeping it stopped");
      void supervisor.disable();
    } else supervisor.enable();
  }

  // The configuration file changed: new settings, maybe a new version to fetch or a switch to follow.
  async function reload(): Promise<void> {
    const before = settings;
    settings = load();
    endpoint = serverEndpointOf(readConfigText());
    options.setDebug(advanced().debug);
    followServerSwitch();
    await applySystem(settings.agent).catch((error: Error) => log.error(`system configuration: ${error.message}`));
    await network?.reconfigure().catch((error: Error) => log.error(`network configuration: ${error.message}`));
    const versionsChanged = JSON.stringify(before.agent.version_control) !== JSON.stringify(settings.agent.version_control);
    if (versionsChanged || before.releaseIndexUrl !== settings.releaseIndexUrl) void check();
    else void serverUpdates.tryPending();
  }

  let network: AgentNetwork | undefined;
  const watchMs = Math.max(20, timeScale.ms(1_000));
  watchFile(options.configFile, { interval: watchMs }, (now, before) => {
    if (now.mtimeMs !== before.mtimeMs || now.size !== before.size || now.ino !== before.ino) {
      reload().catch((error: Error) => log.error(`applying the changed configuration failed: ${error.message}`));
    }
  });
  await applySystem(settings.agent).catch((error: Error) => log.error(`system configuration: ${error.message}`));
  network = await startAgentNetwork({
    settings: () => settings.agent,
    configFile: options.configFile,
    system: paths.system,
    run: options.run,
    timeScale,
    logger: log.child("network"),
  });

  log.info(
    advanced().wait_for_update_check
      ? "start mode: wait for the network and an update check before starting svc-server"
      : "start mode: start svc-server at once and check for updates in the background",
  );
  if (advanced().wait_for_update_check) {
    // Wait for the network and one update check, but not forever: a device that stays offline
    // still runs the version it has once the start timeout has passed.
    const giveUpAt = Date.now() + timeScale.minutes(advanced().viam_server_start_timeout_minutes);
    for (;;) {
      const reached = await check();
      if (reached || stopping || Date.now() >= giveUpAt) break;
      await new Promise((resolve) => setTimeout(resolve, timeScale.ms(5_000)));
    }
  }
  followServerSwitch();

  const timers = [
    setInterval(() => void check(), timeScale.minutes(UPDATE_CHECK_INTERVAL_MINUTES)),
    setInterval(() => {
      if (serverUpdates.pending() !== undefined) void serverUpdates.tryPending();
    }, timeScale.ms(MAINTENANCE_POLL_MS)),
  ];
  if (!advanced().wait_for_update_check) void check();

  return {
    finished,
    async stop() {
      stopping = true;
      for (const timer of timers) clearInterval(timer);
      unwatchFile(options.configFile);
      await checking;
      serverUpdates.close();
      selfUpdate.close();
      await forwarder?.stop();
      await network?.close();
      await supervisor.close();
      finish("stop");
    },
  };
}

// The running agent, assembled from its jobs: the configuration view, svc-server (supervision and
// updates: server/agent-server.ts), the update checks (update/update-checks.ts), its own updates
// (update/agent-self-update.ts), the system settings (system/agent-system-settings.ts) and the
// network (network/agent-network.ts). It starts svc-server at once or after the first update
// check, follows each change of the configuration file, and restarts itself into a new agent
// version when one is installed.
import { unwatchFile, watchFile } from "node:fs";
import type { Logger, LogSink } from "../../../core/index.js";
import type { OfflineLogQueue } from "../logging/index.js";
import type { CommandRunner } from "../system/index.js";
import type { AgentClocks } from "./agent-clock.js";
import { createAgentConfigView, type AgentConfigView } from "./agent-config-view.js";
import type { AgentPaths } from "./agent-paths.js";
import { startAgentNetwork, type AgentNetwork } from "./network/agent-network.js";
import { createVersionStore, currentPlatform, type VersionStore } from "./releases/index.js";
import { startAgentCloud, type AgentCloud } from "./cloud/agent-cloud.js";
import { readCloudCredentials } from "./cloud/read-cloud-credentials.js";
import { startAgentServer, type AgentServer } from "./server/agent-server.js";
import type { FlagSettings } from "./settings/index.js";
import { createAgentSystemSettings, type AgentSystemSettings } from "./system/agent-system-settings.js";
import { createAgentSelfUpdate } from "./update/agent-self-update.js";
import { createUpdateChecks, type UpdateChecks } from "./update/update-checks.js";
import { MINUTE_MS, PROBATION_MINUTES } from "./update/update-timing.js";

export interface AgentOptions {
  paths: AgentPaths;
  /** The agent clock (scaled by SVC_AGENT_TIME_SCALE) and real time. */
  clocks: AgentClocks;
  configFile: string;
  defaultsFile: string;
  flagLayer: FlagSettings;
  env: Record<string, string | undefined>;
  logger: Logger;
  /** Where forwarded system log entries go (the agent's log queue). */
  systemLogSink: LogSink;
  /** The agent's log queue, uploaded to svc-cloud on a machine it manages. */
  logQueue?: OfflineLogQueue;
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

/** The agent's jobs, once started. */
interface AgentJobs {
  view: AgentConfigView;
  server: AgentServer;
  updates: UpdateChecks;
  system: AgentSystemSettings;
  network: AgentNetwork | undefined;
}

export async function startAgent(options: AgentOptions): Promise<RunningAgent> {
  const { paths, clocks, logger: log } = options;
  const view = createAgentConfigView(options);
  options.setDebug(view.advanced().debug);
  let finish: (how: "stop" | "restart") => void = () => {};
  const finished = new Promise<"stop" | "restart">((resolve) => (finish = resolve));

  const servers = createVersionStore(paths, "svc-server", { now: clocks.real.now });
  const agents = createVersionStore(paths, "agent", { now: clocks.real.now });
  const selfUpdate = createAgentSelfUpdate({
    agents,
    stateDir: paths.stateDir,
    runningVersion: options.version,
    probationMs: PROBATION_MINUTES * MINUTE_MS,
    clock: clocks.agent,
    logger: log,
  });
  await selfUpdate.resumeAtStart();
  const server = await startAgentServer({ paths, configFile: options.configFile, view, servers, clocks, logger: log });
  const updates = createUpdateChecks({
    paths,
    view,
    servers,
    agents,
    serverUpdates: server.updates,
    selfUpdate,
    runningVersion: options.version,
    restart: () => finish("restart"),
    clock: clocks.agent,
    logger: log,
  });
  const system = createAgentSystemSettings({ root: paths.root, run: options.run, sink: options.systemLogSink, clock: clocks.real, logger: log });
  const jobs: AgentJobs = { view, server, updates, system, network: undefined };

  // svc-cloud is followed once the file is a credentials file: at start, or once the provisioning
  // portal has saved the machine's credentials into it.
  let cloud: AgentCloud | undefined;
  const linkCloud = () => (cloud ??= startCloudLink(jobs, options, { servers, agents }));
  // The file is looked at every second of the agent clock, but not more often than every 20 ms.
  watchFile(options.configFile, { interval: Math.max(20, 1_000 * clocks.agent.factor) }, (now, before) => {
    if (now.mtimeMs !== before.mtimeMs || now.size !== before.size || now.ino !== before.ino) {
      reload(jobs, options).catch((error: Error) => log.error(`applying the changed configuration failed: ${error.message}`));
      linkCloud();
    }
  });
  await system.apply(view.agent());
  jobs.network = await startAgentNetwork({
    settings: view.agent,
    configFile: options.configFile,
    system: paths.system,
    run: options.run,
    clocks,
    logger: log.child("network"),
  });
  await startServer(jobs, log);
  linkCloud();

  return {
    finished,
    async stop() {
      const checksStopped = updates.stop();
      unwatchFile(options.configFile);
      await cloud?.close();
      await checksStopped;
      server.updates.close();
      selfUpdate.close();
      await system.stop();
      await jobs.network?.close();
      await server.supervisor.close();
      finish("stop");
    },
  };
}

// On a machine svc-cloud manages (a credentials file), the agent section and the versions come from
// svc-cloud, and the agent's logs go there.
function startCloudLink(jobs: AgentJobs, options: AgentOptions, stores: { servers: VersionStore; agents: VersionStore }): AgentCloud | undefined {
  const credentials = readCloudCredentials(options.configFile);
  if (credentials === undefined) return undefined;
  if ("problem" in credentials) {
    options.logger.error(`${options.configFile}: ${credentials.problem}; the agent runs without svc-cloud`);
    return undefined;
  }
  return startAgentCloud({
    credentials,
    stateDir: options.paths.stateDir,
    queue: options.logQueue,
    platform: currentPlatform(),
    clock: options.clocks.agent,
    realClock: options.clocks.real,
    log: options.logger.child("cloud"),
    onSection: () => void reload(jobs, options).catch((error: Error) => options.logger.error(`applying svc-cloud's agent settings failed: ${error.message}`)),
    async versions() {
      const [serverInstalled, agentInstalled] = [(await stores.servers.current()) ?? "", (await stores.agents.current()) ?? ""];
      const serverRunning = jobs.server.supervisor.runningPid() === undefined ? "" : serverInstalled;
      return { agentRunning: options.version, agentInstalled, serverRunning, serverInstalled };
    },
  });
}

// Starts svc-server at once, or after the network and one update check (wait_for_update_check),
// then checks for updates periodically.
async function startServer(jobs: AgentJobs, log: Logger): Promise<void> {
  const { view, updates } = jobs;
  const wait = view.advanced().wait_for_update_check;
  log.info(
    wait
      ? "start mode: wait for the network and an update check before starting svc-server"
      : "start mode: start svc-server at once and check for updates in the background",
  );
  if (wait) await updates.untilReached(view.advanced().viam_server_start_timeout_minutes * MINUTE_MS);
  jobs.server.followSwitch();
  updates.start();
  if (!wait) void updates.check();
}

// The configuration file changed: new settings, maybe a new version to fetch or a switch to follow.
async function reload(jobs: AgentJobs, options: AgentOptions): Promise<void> {
  const { view, server, updates, system, network } = jobs;
  const { updatesChanged } = view.reload();
  options.setDebug(view.advanced().debug);
  server.followSwitch();
  await system.apply(view.agent());
  await network?.reconfigure().catch((error: Error) => options.logger.error(`network configuration: ${error.message}`));
  if (updatesChanged) void updates.check();
  else void server.updates.tryPending();
}

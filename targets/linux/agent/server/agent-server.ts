// svc-server under the agent, as a job: a server an earlier agent left running is stopped, the
// supervisor keeps the current version running (or stopped, under `disable_viam_server`), and the
// server updates move it between versions with a probation for each new one.
import { existsSync, realpathSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "../../../../core/index.js";
import type { AgentClocks } from "../agent-clock.js";
import type { AgentConfigView } from "../agent-config-view.js";
import type { AgentPaths } from "../agent-paths.js";
import type { VersionStore } from "../releases/index.js";
import { createServerUpdates, type ServerUpdates } from "../update/server-updates.js";
import { MINUTE_MS, PROBATION_MAX_CRASHES, PROBATION_MINUTES } from "../update/update-timing.js";
import { updateStateFile } from "../update/update-state.js";
import { stopOrphanServer } from "./orphan-server.js";
import { createServerSupervisor, type ServerSupervisor } from "./server-supervisor.js";

/** How long a server an earlier agent left gets to stop (real time). */
const ORPHAN_GRACE_MS = 20_000;
/** How long a stopping server gets before SIGKILL (real time). */
const STOP_GRACE_MS = 30_000;

export interface AgentServerOptions {
  paths: AgentPaths;
  configFile: string;
  view: AgentConfigView;
  servers: VersionStore;
  clocks: AgentClocks;
  /** The agent's logger; the supervisor logs as "server", the updates as "update". */
  logger: Logger;
}

export interface AgentServer {
  readonly supervisor: ServerSupervisor;
  readonly updates: ServerUpdates;
  /** Runs the server, or stops it and keeps it stopped, as `disable_viam_server` says now. */
  followSwitch(): void;
  close(): Promise<void>;
}

/** Stops a server left running, then resumes an update under way (nothing is started yet). */
export async function startAgentServer(options: AgentServerOptions): Promise<AgentServer> {
  const { paths, view, clocks, logger: log } = options;
  const pidFile = join(paths.stateDir, "svc-server.pid");
  const orphan = await stopOrphanServer(pidFile, ORPHAN_GRACE_MS, clocks.real);
  if (orphan !== undefined) log.warn(`stopped svc-server (PID ${orphan}) left running by an earlier agent`);
  const startTimeoutMs = () => view.advanced().viam_server_start_timeout_minutes * MINUTE_MS;

  const supervisor = createServerSupervisor({
    // The version folder itself, not `current`: the running server keeps naming its own version
    // (in logs, in /proc) while `current` moves on.
    executable: () => (existsSync(paths.currentExecutable("svc-server")) ? realpathSync(paths.currentExecutable("svc-server")) : undefined),
    configFile: options.configFile,
    pidFile,
    restartStatusUrl: () => view.endpoint().restartStatusUrl,
    startTimeoutMs,
    backoff: { initialMs: 1_000, maxMs: 60_000, healthyMs: MINUTE_MS },
    stopGraceMs: STOP_GRACE_MS,
    clocks,
    logger: log.child("server"),
  });
  const updates = createServerUpdates({
    versions: options.servers,
    supervisor,
    state: updateStateFile(join(paths.stateDir, "update-state.json")),
    endpoint: () => view.endpoint(),
    probation: () => ({ startTimeoutMs: startTimeoutMs(), probationMs: PROBATION_MINUTES * MINUTE_MS, maxCrashes: PROBATION_MAX_CRASHES }),
    clock: clocks.agent,
    logger: log.child("update"),
  });
  await updates.resumeAtStart();

  return {
    supervisor,
    updates,
    followSwitch() {
      if (view.advanced().disable_viam_server) {
        if (supervisor.state() !== "stopped") log.info("disable_viam_server is set: stopping svc-server and keeping it stopped");
        void supervisor.disable();
      } else supervisor.enable();
    },
    async close() {
      updates.close();
      await supervisor.close();
    },
  };
}

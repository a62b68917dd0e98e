// svc-agent on a machine svc-cloud manages: the agent section of the part's config fetched
// (MachineConfig: svc's own JSON, fragments merged) at start, whenever the push stream announces
// a revision, and at the interval DeviceAgentConfig answers; each new section kept on disk
// (cloud-agent-section.ts) and the settings read again. Each DeviceAgentConfig call reports the
// versions installed and running, which the web app shows. The agent's log queue goes to the
// part's logs, only while svc-cloud answers; what waits is kept on disk meanwhile.
import { hostname } from "node:os";
import { ConnectError } from "@connectrpc/connect";
import { coalescedRun, type Clock, type Logger } from "../../../../core/index.js";
import { createCloudConnection, uploadToPartLogs, watchRevisions, type CloudCredentials } from "../../cloud-link/index.js";
import type { OfflineLogQueue } from "../../logging/index.js";
import { cloudSectionsOf, keepCloudSections } from "./cloud-agent-section.js";

/** Until svc-cloud says otherwise, as often as Viam's agent asks at most. */
export const DEFAULT_AGENT_CHECK_MS = 5 * 60_000;
const CHECK_BOUNDS_MS = [5_000, 24 * 60 * 60_000] as const;

export interface AgentVersions {
  agentRunning: string;
  agentInstalled: string;
  serverRunning: string;
  serverInstalled: string;
}

export interface AgentCloudOptions {
  credentials: CloudCredentials;
  stateDir: string;
  /** The agent's own log queue; uploaded when given. */
  queue?: OfflineLogQueue;
  platform: string;
  versions(): Promise<AgentVersions>;
  /** The kept section changed: the settings are read again. */
  onSection(): void;
  /** The agent clock, for the interval between checks. */
  clock: Clock;
  /** Real time: svc-cloud's heartbeat and the uploader's waits are the network's, not the agent's. */
  realClock: Clock;
  log: Logger;
}

export interface AgentCloud {
  /** Asks svc-cloud now; resolves once the answer was kept (or it could not be had). */
  check(): Promise<void>;
  close(): Promise<void>;
}

export function startAgentCloud(options: AgentCloudOptions): AgentCloud {
  const { credentials, clock, log } = options;
  const connection = createCloudConnection({ url: credentials.url, apiKey: credentials.apiKey });
  const closing = new AbortController();
  let intervalMs = DEFAULT_AGENT_CHECK_MS;
  let reachable = true;
  let timer: unknown;

  // Phase: the part's agent, network and maintenance sections, kept when new.
  async function fetchSection(): Promise<void> {
    const answer = await connection.cloud.machineConfig({ partId: credentials.partId }, { signal: closing.signal });
    const config = JSON.parse(answer.config) as Record<string, unknown>;
    if (await keepCloudSections(options.stateDir, cloudSectionsOf(config))) {
      log.info("new agent settings from svc-cloud", { revision: answer.revision });
      options.onSection();
    }
  }

  // Phase: what runs here, told; how long until the next check, heard.
  async function report(): Promise<void> {
    const versions = await options.versions();
    const versionInfo = {
      agentRunning: versions.agentRunning,
      agentInstalled: versions.agentInstalled,
      viamServerRunning: versions.serverRunning,
      viamServerInstalled: versions.serverInstalled,
    };
    const answer = await connection.agent.deviceAgentConfig(
      { id: credentials.partId, hostInfo: { platform: options.platform, distro: "", tags: [hostname()] }, versionInfo },
      { signal: closing.signal },
    );
    const ms = Number(answer.checkInterval?.seconds ?? 0n) * 1000;
    if (ms > 0) intervalMs = Math.min(Math.max(ms, CHECK_BOUNDS_MS[0]), CHECK_BOUNDS_MS[1]);
  }

  async function checkOnce(): Promise<void> {
    try {
      await fetchSection();
      await report();
      if (!reachable) {
        log.info("svc-cloud is reachable again", { address: credentials.url });
        void uploader?.flush();
      }
      reachable = true;
    } catch (thrown) {
      if (closing.signal.aborted) return;
      if (reachable) log.warn("cannot reach svc-cloud; the agent keeps the settings it has", { address: credentials.url, error: ConnectError.from(thrown).message });
      reachable = false;
    }
  }

  const checks = coalescedRun(async () => {
    await checkOnce();
    if (!closing.signal.aborted) schedule();
  }, () => closing.signal.aborted);
  const check = checks.request;

  function schedule(): void {
    clock.clearTimeout(timer);
    timer = clock.setTimeout(() => void check(), intervalMs);
  }

  const uploader = options.queue && uploadToPartLogs(connection, credentials.partId, options.queue, { clock: options.realClock, log, signal: closing.signal });
  const watch = watchRevisions({ connection, partId: credentials.partId, clock: options.realClock, onRevision: () => void check() });
  void check();

  return {
    check,
    async close() {
      closing.abort();
      clock.clearTimeout(timer);
      await watch.close();
      await checks.idle();
      await uploader?.close();
    },
  };
}

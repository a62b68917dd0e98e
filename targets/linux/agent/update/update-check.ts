// One update check: read the release index, then for svc-server and for the agent itself resolve
// the configured version, download, verify and install it (not activate: that is decided by the
// server updates and the self-update). Old versions beyond the last few are cleaned afterwards.
import type { AgentConfig, Logger, ReleaseIndex } from "../../../../core/index.js";
import { classifyVersionSpec } from "../../../../core/index.js";
import { fetchReleaseIndex, prepareUpdate, type DownloadFailures, type PreparedUpdate, type VersionStore } from "../releases/index.js";

export interface UpdateCheckOptions {
  indexUrl: string;
  versionControl: AgentConfig["version_control"];
  platform: string;
  servers: VersionStore;
  agents: VersionStore;
  downloadDir: string;
  /** Per product: index entries whose artifact did not match them, held back for a while. */
  downloadFailures?: Record<"svc-server" | "agent", DownloadFailures>;
  logger: Logger;
  /** Versions kept installed besides current and previous. */
  keep?: number;
  /** A svc-server version waiting to be activated: never cleaned away. */
  pendingServer?: string;
}

export interface UpdateCheckResult {
  /** The index could be read (or was not needed); false means offline or a broken index. */
  reachedIndex: boolean;
  server: PreparedUpdate;
  agent: PreparedUpdate;
}

export const KEEP_VERSIONS = 3;

export async function checkForUpdates(options: UpdateCheckOptions): Promise<UpdateCheckResult> {
  const { logger: log } = options;
  const specs = [options.versionControl["svc-server"], options.versionControl.agent];
  let index: ReleaseIndex | undefined;
  let reachedIndex = true;
  if (specs.some((spec) => classifyVersionSpec(spec).kind !== "url")) {
    try {
      const parsed = await fetchReleaseIndex(options.indexUrl);
      for (const problem of parsed.problems) log.warn(`release index ${options.indexUrl}: ${problem}`);
      index = parsed.index;
    } catch (error) {
      reachedIndex = false;
      log.warn(`update check: ${(error as Error).message}`);
    }
  }
  const prepare = (product: "svc-server" | "agent", spec: string, store: VersionStore): Promise<PreparedUpdate> =>
    index === undefined && classifyVersionSpec(spec).kind !== "url"
      ? Promise.resolve({ kind: "error", error: "the release index could not be read" })
      : prepareUpdate({
          product,
          index,
          spec,
          platform: options.platform,
          store,
          downloadDir: options.downloadDir,
          failures: options.downloadFailures?.[product],
          logger: log,
        });
  const server = await prepare("svc-server", options.versionControl["svc-server"], options.servers);
  const agent = await prepare("agent", options.versionControl.agent, options.agents);
  for (const [name, result] of [["svc-server", server], ["svc-agent", agent]] as const) {
    if (result.kind === "error" && reachedIndex) log.warn(`update check for ${name}: ${result.error}`);
    if (result.kind === "upToDate" && result.reason) log.info(`update check for ${name}: ${result.reason}`);
    // Reported when it failed; saying it again at every check would only fill the log.
    if (result.kind === "deferred") log.debug(`update check for ${name}: ${result.reason}`);
  }
  const waiting = [options.pendingServer, server.kind === "ready" ? server.version : undefined].filter((v): v is string => v !== undefined);
  for (const store of [options.servers, options.agents]) {
    const protect = store === options.servers ? waiting : agent.kind === "ready" ? [agent.version] : [];
    const removed = await store.cleanup(options.keep ?? KEEP_VERSIONS, protect).catch(() => []);
    if (removed.length) log.info(`removed old ${store.product} versions: ${removed.join(", ")}`);
  }
  return { reachedIndex, server, agent };
}

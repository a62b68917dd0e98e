// svc-cloud as the source of a machine's configuration. The machine has already started from its
// cache (boot-config.ts); from then on: fetch the part's config (MachineConfig) at once, whenever
// the push stream announces a new revision, and every `refresh_interval` as the fallback; hand a
// new revision to the machine's load, the same pipeline a config file goes through; and once the
// machine runs a revision, keep it in the cache for the next boot. A revision the machine refused
// is not handed on again (its reason was logged once); a cloud that cannot be reached is said
// once when it goes and once when it is back, and the machine keeps running as it is. What the
// machine runs and the revision it refused, with the reason, are reported to svc-cloud
// (ReportConfigStatus) whenever they change, so the part's page says why an edit did not take.
import { coalescedRun, every, type Clock, type LoadOptions, type LoadResult, type Logger } from "../../../../core/index.js";
import { ConnectError } from "@connectrpc/connect";
import type { CloudConnection } from "../../cloud-link/cloud-connection.js";
import type { CloudPart } from "./cloud-part.js";
import { cachedConfigOf, type CachedConfig, type ConfigCache } from "./config-cache.js";
import { watchRevisions, type RevisionWatch } from "../../cloud-link/revision-watch.js";

export interface CloudConfigSourceOptions {
  connection: CloudConnection;
  partId: string;
  cache: ConfigCache;
  /** What the machine was started with from the cache, if anything. */
  booted?: CachedConfig;
  /** The machine's load. */
  load(text: string, origin: string, options: LoadOptions): Promise<LoadResult>;
  /** The revision the machine's resources were last built from (the graph's). */
  appliedRevision(): string;
  log: Logger;
  clock: Clock;
  refreshMs: number;
  /** svc-cloud answered again after it could not be reached (what waited for it may go now). */
  onReachable?(): void;
  random?: () => number;
  silenceMs?: number;
}

export interface CloudConfigSource {
  /** The part's ids: from the cache at first, from svc-cloud once it answered. */
  part(): CloudPart | undefined;
  /** Fetches now (what a poll does); resolves when the fetched revision was handed on. */
  refresh(): Promise<void>;
  close(): Promise<void>;
}

/** The origin a revision's loads carry in the log and the revision GetMachineStatus shows. */
export const cloudOrigin = (revision: string) => `cloud revision ${revision}`;
export const cacheOrigin = (revision: string) => `cache (cloud revision ${revision})`;
export const cacheRevision = (revision: string) => `${revision} (cache)`;

export function startCloudConfigSource(options: CloudConfigSourceOptions): CloudConfigSource {
  const { connection, partId, cache, log, clock } = options;
  // What is known: the part, the revision last handed to the machine, the one refused, the one cached.
  let part = options.booted?.part;
  let latest: CachedConfig | undefined;
  let refused: string | undefined;
  let cached = options.booted ? cacheRevision(options.booted.revision) : undefined;
  let refusedReason = "";
  // The status svc-cloud last acknowledged, as JSON; reported again only when it changes.
  let reportedStatus: string | undefined;
  let reachable = true;
  let closed = false;
  // Ends a call in flight when the source closes, so a cloud that never answers holds up no stop.
  const closing = new AbortController();

  // Phase: ask svc-cloud for the part's config.
  async function fetchConfig(): Promise<CachedConfig | undefined> {
    try {
      const answer = await connection.cloud.machineConfig({ partId }, { signal: closing.signal });
      if (!reachable) {
        log.info("svc-cloud is reachable again", { address: connection.url });
        options.onReachable?.();
      }
      reachable = true;
      return cachedConfigOf(answer);
    } catch (thrown) {
      if (closing.signal.aborted) return undefined;
      if (reachable) {
        log.warn("cannot fetch the configuration from svc-cloud; the machine keeps running as it is and tries again", {
          address: connection.url,
          error: ConnectError.from(thrown).message,
        });
      }
      reachable = false;
      return undefined;
    }
  }

  // Phase: hand a new revision to the machine.
  async function apply(fetched: CachedConfig): Promise<void> {
    part = fetched.part;
    log.debug("svc-cloud answered a revision", { revision: fetched.revision });
    if (fetched.revision === latest?.revision || fetched.revision === refused) return;
    const result = await options.load(fetched.config, cloudOrigin(fetched.revision), { revision: fetched.revision });
    if (result.outcome === "refused" || result.outcome === "failed") {
      refused = fetched.revision;
      refusedReason = result.outcome === "refused" ? result.reason : `applying it failed: ${result.error}`;
      return;
    }
    latest = fetched;
    refused = undefined;
    refusedReason = "";
  }

  // Phase: svc-cloud hears what the machine runs and what it refused, once each change.
  async function report(): Promise<void> {
    const status = { partId, runningRevision: options.appliedRevision(), refusedRevision: refused ?? "", refusedReason };
    const text = JSON.stringify(status);
    if (text === reportedStatus) return;
    try {
      await connection.cloud.reportConfigStatus(status, { signal: closing.signal });
      reportedStatus = text;
    } catch (thrown) {
      if (!closing.signal.aborted) log.debug("cannot tell svc-cloud the configuration's status; it is told at the next fetch", { error: ConnectError.from(thrown).message });
    }
  }

  // Phase: the revision the machine runs goes to the cache.
  async function keep(): Promise<void> {
    if (latest === undefined || cached === latest.revision || options.appliedRevision() !== latest.revision) return;
    try {
      await cache.write(latest);
      cached = latest.revision;
    } catch (thrown) {
      log.warn("cannot keep the configuration for the next boot", { file: cache.path, error: String(thrown) });
    }
  }

  // One fetch at a time; one asked for while a fetch is out (a notice of a newer revision) is made
  // once that one is done, so no revision waits for the next poll.
  const fetches = coalescedRun(async () => {
    const fetched = await fetchConfig();
    if (fetched && !closed) await apply(fetched);
    if (!closed) await keep();
    if (fetched && !closed) await report();
  }, () => closed);
  const refresh = fetches.request;

  void refresh();
  const stopPolling = every(clock, options.refreshMs, () => void refresh());
  const watch: RevisionWatch = watchRevisions({
    connection,
    partId,
    clock,
    random: options.random,
    silenceMs: options.silenceMs,
    onRevision: (revision) => {
      log.debug("svc-cloud announced a revision", { revision, running: latest?.revision ?? "" });
      if (revision !== latest?.revision && revision !== refused) void refresh();
    },
    onTrouble: (problem, failures) => {
      if (failures === 1) log.debug("following svc-cloud's revisions again after a pause", { problem });
    },
  });

  return {
    part: () => part,
    refresh,
    async close() {
      closed = true;
      closing.abort();
      stopPolling();
      await watch.close();
      await fetches.idle();
    },
  };
}

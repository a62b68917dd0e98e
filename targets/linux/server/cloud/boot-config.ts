// What a cloud-managed machine starts with: the configuration it last applied, from the cache, at
// once, never waiting for the network. A first boot (no cache yet) asks svc-cloud for a few
// seconds, so the machine starts on the port and settings its config names; when the cloud does
// not answer, the rest of the credentials file (usually nothing: the defaults) stands in until it
// does. Never a failed boot: a cache that cannot be used is set aside and said in the log.
import { readMachineConfig, type ConfigReading, type Logger, type MachineConfig } from "../../../../core/index.js";
import { ConnectError } from "@connectrpc/connect";
import { createCloudConnection, type CloudCredentials } from "../../cloud-link/index.js";
import { cachedConfigOf, type CachedConfig, type ConfigCache } from "./config-cache.js";
import { cacheOrigin, cacheRevision, cloudOrigin } from "./cloud-config-source.js";

/** How long a first boot waits for svc-cloud's config before it starts without it. */
export const FIRST_BOOT_WAIT_MS = 5_000;

export interface CloudBoot {
  /** The reading the machine loads first, and its configuration (always usable). */
  reading: ConfigReading;
  config: MachineConfig;
  origin: string;
  /** The revision it is loaded as, when it came from the cache. */
  revision?: string;
  booted?: CachedConfig;
}

export function bootConfig(cache: ConfigCache, log: Logger, beforeCloud: { reading: ConfigReading; origin: string }): CloudBoot {
  const read = cache.read();
  if (read.kind === "set-aside") {
    log.warn("the cached configuration cannot be used; starting without it until svc-cloud answers", {
      file: cache.path,
      problem: read.problem,
      ...(read.movedTo ? { kept_as: read.movedTo } : {}),
    });
  }
  if (read.kind === "found") {
    const reading = readMachineConfig(read.cached.config);
    if (reading.config) {
      const { revision } = read.cached;
      log.info("serving the cached configuration until svc-cloud answers", { file: cache.path, revision });
      return { reading, config: reading.config, origin: cacheOrigin(revision), revision: cacheRevision(revision), booted: read.cached };
    }
    log.warn("the cached configuration is no longer valid; starting without it until svc-cloud answers", { file: cache.path, revision: read.cached.revision });
  }
  if (read.kind === "none") log.info("no cached configuration yet; starting with the credentials file's own settings until svc-cloud answers", { file: cache.path });
  const own = beforeCloud.reading.config ? beforeCloud.reading : readMachineConfig("{}");
  return { reading: own, config: own.config!, origin: beforeCloud.origin };
}

/** A first boot's config from svc-cloud, or undefined (said in the log) when it cannot be had in time. */
export async function firstBootConfig(credentials: CloudCredentials, log: Logger, waitMs = FIRST_BOOT_WAIT_MS): Promise<CloudBoot | undefined> {
  const connection = createCloudConnection({ url: credentials.url, apiKey: credentials.apiKey, callTimeoutMs: waitMs });
  let first: CachedConfig;
  try {
    first = cachedConfigOf(await connection.cloud.machineConfig({ partId: credentials.partId }));
  } catch (thrown) {
    log.warn("svc-cloud did not answer at the first boot; starting without its configuration until it does", { address: credentials.url, error: ConnectError.from(thrown).message });
    return undefined;
  }
  const reading = readMachineConfig(first.config);
  if (!reading.config) return undefined;
  log.info("first boot: starting on svc-cloud's configuration", { revision: first.revision });
  return { reading, config: reading.config, origin: cloudOrigin(first.revision), revision: first.revision, booted: first };
}

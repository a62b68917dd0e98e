// What a cloud-managed machine starts with, before svc-cloud is asked anything: the configuration
// it last applied, from the cache, or, without one, the rest of its credentials file (usually
// nothing: the defaults), which the cloud's replaces moments later. Never a wait for the network,
// and never a failed boot: a cache that cannot be used is set aside and said in the log.
import { readMachineConfig, type ConfigReading, type Logger, type MachineConfig } from "../../../../core/index.js";
import type { CachedConfig, ConfigCache } from "./config-cache.js";
import { cacheOrigin, cacheRevision } from "./cloud-config-source.js";

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

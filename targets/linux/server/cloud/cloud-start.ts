// The start of a cloud-managed svc-server, before the machine exists: the credentials checked (a
// machine meant to be managed never runs unmanaged by mistake), the log queue opened so the very
// first lines wait for the cloud too, and the cache the machine boots from. Where the cache and
// the queue live: SVC_CLOUD_CACHE, or ~/.svc/cloud.
import { mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { CloudConfig } from "../../../../core/index.js";
import { openOfflineLogQueue, type OfflineLogQueue } from "../../logging/index.js";
import { cloudCredentialsOf, type CloudCredentials } from "../../cloud-link/cloud-credentials.js";
import { fileSafe } from "./config-cache.js";

/** As Viam: 20,000 entries wait for the cloud; past that the oldest go, and one line says how many. */
export const CLOUD_LOG_QUEUE_ENTRIES = 20_000;
export const CLOUD_LOG_QUEUE_BYTES = 16 * 1024 * 1024;

export interface CloudStart {
  credentials: CloudCredentials;
  dir: string;
  logQueue: OfflineLogQueue | undefined;
  /** A problem opening the queue, said once logging is up. */
  queueProblem?: string;
}

export function cloudDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.SVC_CLOUD_CACHE || join(homedir(), ".svc", "cloud");
}

export function prepareCloudStart(cloud: CloudConfig, allowInsecureCreds: boolean, dir = cloudDir()): CloudStart | { problem: string } {
  const credentials = cloudCredentialsOf(cloud, allowInsecureCreds);
  if ("problem" in credentials) return credentials;
  try {
    // The cache holds configurations with their secrets: the folder is its owner's alone.
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const logQueue = openOfflineLogQueue({
      dir: join(dir, `log-queue-${fileSafe(credentials.partId)}`),
      maxEntries: CLOUD_LOG_QUEUE_ENTRIES,
      maxBytes: CLOUD_LOG_QUEUE_BYTES,
      // What the log levels let through goes to the cloud, debug lines a resource was given included.
      minLevel: "debug",
    });
    return { credentials, dir, logQueue };
  } catch (thrown) {
    return { credentials, dir, logQueue: undefined, queueProblem: `cannot keep logs for svc-cloud: ${(thrown as Error).message}` };
  }
}

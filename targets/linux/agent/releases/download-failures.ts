// Artifacts that did not match their index entry, remembered per version with the entry's sha256
// in /var/lib/svc-agent/download-failures-<product>.json (written atomically), so that neither
// the next update check nor a restarted agent downloads the same wrong bytes again before the
// backoff has passed (core/agent/download-retry.ts decides how long). A new entry for the version
// is a different artifact: it is tried at once.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { createSerialQueue, downloadHeldBack, nextDownloadFailure, type DownloadFailureRecord, type DownloadRetryRules } from "../../../../core/index.js";
import type { AgentPaths, Product } from "../agent-paths.js";
import { writeFileAtomic } from "../../system/atomic-file.js";

export interface HeldDownload {
  /** Why the last attempt failed. */
  reason: string;
  /** Not downloaded again before this time. */
  retryAt: Date;
}

export interface DownloadFailures {
  /** The failure holding the entry (`version` with `sha256`) back now, if any. */
  holding(version: string, sha256: string): Promise<HeldDownload | undefined>;
  /** Records one more failure of the entry; returns when it may be tried again. */
  failed(version: string, sha256: string, reason: string): Promise<Date>;
  /** The version's artifact was good in the end: its failures are forgotten. */
  succeeded(version: string): Promise<void>;
}

export interface DownloadFailuresOptions {
  /** The agent's clock. */
  now(): number;
  /** Scaled: the first wait and the longest. */
  backoff: DownloadRetryRules;
}

interface StoredFailure extends DownloadFailureRecord {
  reason: string;
}

export function createDownloadFailures(paths: AgentPaths, product: Product, options: DownloadFailuresOptions): DownloadFailures {
  const file = join(paths.stateDir, `download-failures-${product}.json`);
  const changes = createSerialQueue();

  async function read(): Promise<Record<string, StoredFailure>> {
    try {
      const data = JSON.parse(await readFile(file, "utf8")) as Record<string, Partial<StoredFailure>>;
      return Object.fromEntries(Object.entries(data).filter((entry): entry is [string, StoredFailure] => isStoredFailure(entry[1])));
    } catch {
      // Missing (nothing failed) or unreadable: the artifact is tried again, once, and remembered anew.
      return {};
    }
  }
  const change = (edit: (failures: Record<string, StoredFailure>) => void) =>
    changes.run(async () => {
      const failures = await read();
      edit(failures);
      await writeFileAtomic(file, `${JSON.stringify(failures, null, 2)}\n`);
    });

  return {
    async holding(version, sha256) {
      const record = (await read())[version];
      if (!downloadHeldBack(record, sha256, options.now())) return undefined;
      return { reason: record!.reason, retryAt: new Date(record!.retryAt) };
    },
    async failed(version, sha256, reason) {
      let retryAt = 0;
      await change((failures) => {
        const next = nextDownloadFailure(failures[version], sha256, options.now(), options.backoff);
        failures[version] = { ...next, reason };
        retryAt = next.retryAt;
      });
      return new Date(retryAt);
    },
    async succeeded(version) {
      if ((await read())[version] === undefined) return;
      await change((failures) => {
        delete failures[version];
      });
    },
  };
}

function isStoredFailure(value: Partial<StoredFailure> | null): value is StoredFailure {
  return (
    typeof value === "object" && value !== null && typeof value.sha256 === "string" && typeof value.reason === "string" &&
    Number.isFinite(value.failures) && Number.isFinite(value.retryAt)
  );
}

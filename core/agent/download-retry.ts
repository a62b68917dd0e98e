// When an artifact that did not match its index entry (its sha256 or its size) may be downloaded
// again. The same entry serves the same wrong bytes until someone fixes it, so fetching it at every
// update check only spends the device's data: each failure doubles the wait, up to a cap. The
// failure belongs to the entry (version and sha256): a new entry is a different artifact and is
// tried at once. Pure: the caller passes the times.

export interface DownloadRetryRules {
  /** The wait after the first failure. */
  initialMs: number;
  /** The longest wait. */
  maxMs: number;
}

/** What is remembered about an entry's failures. */
export interface DownloadFailureRecord {
  sha256: string;
  /** Failures in a row of this entry. */
  failures: number;
  /** Not downloaded again before this time (ms since the epoch). */
  retryAt: number;
}

/** Whether `record` holds the entry (version's `sha256`) back at `now`. */
export function downloadHeldBack(record: DownloadFailureRecord | undefined, sha256: string, now: number): boolean {
  return record !== undefined && record.sha256 === sha256.toLowerCase() && now < record.retryAt;
}

/** The record after one more failure of the entry at `now`. */
export function nextDownloadFailure(
  record: DownloadFailureRecord | undefined,
  sha256: string,
  now: number,
  rules: DownloadRetryRules,
): DownloadFailureRecord {
  const sameEntry = record !== undefined && record.sha256 === sha256.toLowerCase();
  const failures = sameEntry ? record.failures + 1 : 1;
  const waitMs = Math.min(rules.maxMs, rules.initialMs * 2 ** Math.min(failures - 1, 52));
  return { sha256: sha256.toLowerCase(), failures, retryAt: now + waitMs };
}

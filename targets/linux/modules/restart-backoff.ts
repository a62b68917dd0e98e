// When to start a crashed module again: 100 ms after the first failure, doubling with each
// failure in a row, never more than 30 s; a module that stayed up for a healthy minute starts
// counting from zero again. Pure arithmetic on the times it is given, so it needs no timers.

export const RESTART_INITIAL_MS = 100;
export const RESTART_MAX_MS = 30_000;
export const HEALTHY_RESET_MS = 60_000;

export interface RestartBackoff {
  /** Records a failure at `now`; returns how long to wait before the next start. */
  failed(now: number): number;
  /** Records that the module came up (served and answered ready) at `now`. */
  started(now: number): void;
  /** Failures in a row, as of `now` (0 once the module has been up for a healthy minute). */
  consecutiveFailures(now: number): number;
}

export function createRestartBackoff(initialMs = RESTART_INITIAL_MS, maxMs = RESTART_MAX_MS, healthyMs = HEALTHY_RESET_MS): RestartBackoff {
  let failures = 0;
  let upSince: number | undefined;
  const healthy = (now: number) => upSince !== undefined && now - upSince >= healthyMs;
  return {
    failed(now) {
      if (healthy(now)) failures = 0;
      upSince = undefined;
      failures++;
      return Math.min(initialMs * Math.pow(2, failures - 1), maxMs);
    },
    started(now) {
      upSince = now;
    },
    consecutiveFailures(now) {
      return healthy(now) ? 0 : failures;
    },
  };
}

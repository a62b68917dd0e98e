// SVC_AGENT_TIME_SCALE: one factor applied to every duration the agent waits for (start timeout,
// update-check interval, rollback window, offline and hotspot delays, restart and download
// backoff). 1 on a device; tests set e.g. 0.001 so "10 minutes" passes in 600 ms instead of
// sleeping minutes.
export interface TimeScale {
  readonly factor: number;
  /** Scaled milliseconds for a duration given in minutes. */
  minutes(value: number): number;
  /** Scaled milliseconds for a duration given in milliseconds. */
  ms(value: number): number;
}

export const TIME_SCALE_ENV = "SVC_AGENT_TIME_SCALE";

export function createTimeScale(factor = 1): TimeScale {
  if (!Number.isFinite(factor) || factor <= 0) throw new RangeError(`${TIME_SCALE_ENV} must be a positive number (found ${factor})`);
  return {
    factor,
    minutes: (value) => Math.max(1, Math.round(value * 60_000 * factor)),
    ms: (value) => Math.max(1, Math.round(value * factor)),
  };
}

/** The scale named by the environment; a value that is not a positive number is an error naming it. */
export function timeScaleFromEnv(env: Record<string, string | undefined>): TimeScale {
  const text = env[TIME_SCALE_ENV];
  if (text === undefined || text === "") return createTimeScale(1);
  return createTimeScale(Number(text));
}

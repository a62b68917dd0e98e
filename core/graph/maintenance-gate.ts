// The maintenance window: when `maintenance` is configured, a reconfiguration waits until the named
// sensor's reading holds the key set to boolean true. A deferred configuration is logged once and
// re-checked on a timer; a newer one replaces it. A sensor that is not running lets the change
// through with a warning (a broken sensor must not lock the machine's configuration for good); a
// sensor whose read fails blocks it.
import type { Clock } from "../clock.js";
import type { MaintenanceConfig } from "../config/index.js";
import { hasReadings, type LoggerLike, type Resource } from "../resource/index.js";
import { errorMessage } from "../errors/index.js";
import { settleWithin } from "./bounded.js";

export type MaintenanceDecision = { allowed: true; warning?: string } | { allowed: false; reason: string };

export const DEFAULT_MAINTENANCE_RECHECK_MS = 5_000;
export const DEFAULT_MAINTENANCE_READ_TIMEOUT_MS = 5_000;

/** Asks the sensor once. `lookup` finds a running resource by full name. */
export async function checkMaintenance(
  maintenance: MaintenanceConfig,
  lookup: (name: string) => Resource | undefined,
  clock: Clock,
  readTimeoutMs = DEFAULT_MAINTENANCE_READ_TIMEOUT_MS,
): Promise<MaintenanceDecision> {
  const name = maintenance.sensor_name;
  const key = maintenance.maintenance_allowed_key;
  const sensor = lookup(name);
  if (sensor === undefined) {
    return { allowed: true, warning: `maintenance sensor ${name} is not running; applying the configuration without its consent` };
  }
  if (!hasReadings(sensor)) return { allowed: false, reason: `maintenance sensor ${name} has no readings` };
  const read = await settleWithin(clock, readTimeoutMs, () => sensor.getReadings(), () => undefined);
  if (!read.ok) {
    const why = read.timedOut ? `no answer within ${readTimeoutMs} ms` : errorMessage(read.error);
    return { allowed: false, reason: `reading maintenance sensor ${name} failed: ${why}` };
  }
  const readings = read.value;
  const value = readings !== null && typeof readings === "object" ? readings[key] : undefined;
  if (value === true) return { allowed: true };
  if (value === undefined) return { allowed: false, reason: `the reading of maintenance sensor ${name} has no key "${key}"` };
  return { allowed: false, reason: `maintenance sensor ${name} reports ${key} = ${JSON.stringify(value)}` };
}

export type GateResult = { kind: "allowed"; warning?: string } | { kind: "deferred"; reason: string } | { kind: "superseded" };

export interface MaintenanceGate<T> {
  /**
   * Offers an item (a configuration). "allowed": the caller applies it now. "deferred": the gate
   * keeps it and hands it to `release` once allowed, unless a newer item replaces it first.
   * "superseded": a newer item arrived while this one was being checked.
   */
  submit(item: T, maintenance: MaintenanceConfig | undefined): Promise<GateResult>;
  /** True while an item waits for the window. */
  readonly deferred: boolean;
  /** Drops any waiting item and stops re-checking. */
  stop(): void;
}

export interface MaintenanceGateOptions<T> {
  clock: Clock;
  logger: LoggerLike;
  check(maintenance: MaintenanceConfig): Promise<MaintenanceDecision>;
  release(item: T): void;
  recheckMs?: number;
}

export function createMaintenanceGate<T>(options: MaintenanceGateOptions<T>): MaintenanceGate<T> {
  const { clock, logger } = options;
  const recheckMs = options.recheckMs ?? DEFAULT_MAINTENANCE_RECHECK_MS;
  let waiting: { item: T; maintenance: MaintenanceConfig } | undefined;
  let latest = 0;
  let timer: unknown;
  let toldDeferred = false;
  let stopped = false;

  async function check(maintenance: MaintenanceConfig): Promise<MaintenanceDecision> {
    try {
      return await options.check(maintenance);
    } catch (thrown) {
      return { allowed: false, reason: `checking maintenance failed: ${errorMessage(thrown)}` };
    }
  }

  function clearTimer(): void {
    if (timer !== undefined) clock.clearTimeout(timer);
    timer = undefined;
  }

  function allowed(decision: { warning?: string }): void {
    if (decision.warning !== undefined) logger.warn(decision.warning);
    toldDeferred = false;
  }

  function deferred(reason: string): void {
    if (!toldDeferred) logger.info(`configuration change deferred until maintenance is allowed: ${reason}`);
    else logger.debug(`configuration change still deferred: ${reason}`);
    toldDeferred = true;
    clearTimer();
    timer = clock.setTimeout(() => void recheck(), recheckMs);
  }

  async function recheck(): Promise<void> {
    timer = undefined;
    const held = waiting;
    if (held === undefined || stopped) return;
    const ticket = latest;
    const decision = await check(held.maintenance);
    if (ticket !== latest || stopped) return;
    if (decision.allowed) {
      waiting = undefined;
      allowed(decision);
      logger.info("maintenance allowed: applying the deferred configuration");
      options.release(held.item);
    } else {
      deferred(decision.reason);
    }
  }

  return {
    get deferred() {
      return waiting !== undefined;
    },
    async submit(item, maintenance) {
      const ticket = ++latest;
      clearTimer();
      if (maintenance === undefined) {
        waiting = undefined;
        toldDeferred = false;
        return { kind: "allowed" };
      }
      waiting = { item, maintenance };
      const decision = await check(maintenance);
      if (ticket !== latest || stopped) return { kind: "superseded" };
      if (decision.allowed) {
        waiting = undefined;
        allowed(decision);
        return decision.warning !== undefined ? { kind: "allowed", warning: decision.warning } : { kind: "allowed" };
      }
      deferred(decision.reason);
      return { kind: "deferred", reason: decision.reason };
    },
    stop() {
      stopped = true;
      latest++;
      waiting = undefined;
      clearTimer();
    },
  };
}

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

/** What the gate keeps: the item waiting for the window, and the check under way. */
interface GateState<T> {
  readonly options: MaintenanceGateOptions<T>;
  readonly recheckMs: number;
  waiting: { item: T; maintenance: MaintenanceConfig } | undefined;
  latest: number;
  timer: unknown;
  toldDeferred: boolean;
  stopped: boolean;
}

// The methods are thin: on a microcontroller each closure carries a copy of its code, so the
// work is in the module functions below, made once.
export function createMaintenanceGate<T>(options: MaintenanceGateOptions<T>): MaintenanceGate<T> {
  const gate: GateState<T> = {
    options,
    recheckMs: options.recheckMs ?? DEFAULT_MAINTENANCE_RECHECK_MS,
    waiting: undefined,
    latest: 0,
    timer: undefined,
    toldDeferred: false,
    stopped: false,
  };
  return {
    get deferred() {
      return gate.waiting !== undefined;
    },
    submit: (item, maintenance) => submit(gate, item, maintenance),
    stop() {
      gate.stopped = true;
      gate.latest++;
      gate.waiting = undefined;
      clearTimer(gate);
    },
  };
}

async function check<T>(gate: GateState<T>, maintenance: MaintenanceConfig): Promise<MaintenanceDecision> {
  try {
    return await gate.options.check(maintenance);
  } catch (thrown) {
    return { allowed: false, reason: `checking maintenance failed: ${errorMessage(thrown)}` };
  }
}

function clearTimer<T>(gate: GateState<T>): void {
  if (gate.timer !== undefined) gate.options.clock.clearTimeout(gate.timer);
  gate.timer = undefined;
}

function allowed<T>(gate: GateState<T>, decision: { warning?: string }): void {
  if (decision.warning !== undefined) gate.options.logger.warn(decision.warning);
  gate.toldDeferred = false;
}

function deferred<T>(gate: GateState<T>, reason: string): void {
  const { logger, clock } = gate.options;
  if (!gate.toldDeferred) logger.info(`configuration change deferred until maintenance is allowed: ${reason}`);
  else logger.debug(`configuration change still deferred: ${reason}`);
  gate.toldDeferred = true;
  clearTimer(gate);
  gate.timer = clock.setTimeout(() => void recheck(gate), gate.recheckMs);
}

async function recheck<T>(gate: GateState<T>): Promise<void> {
  gate.timer = undefined;
  const held = gate.waiting;
  if (held === undefined || gate.stopped) return;
  const ticket = gate.latest;
  const decision = await check(gate, held.maintenance);
  if (ticket !== gate.latest || gate.stopped) return;
  if (decision.allowed) {
    gate.waiting = undefined;
    allowed(gate, decision);
    gate.options.logger.info("maintenance allowed: applying the deferred configuration");
    gate.options.release(held.item);
  } else {
    deferred(gate, decision.reason);
  }
}

async function submit<T>(gate: GateState<T>, item: T, maintenance: MaintenanceConfig | undefined): Promise<GateResult> {
  const ticket = ++gate.latest;
  clearTimer(gate);
  if (maintenance === undefined) {
    gate.waiting = undefined;
    gate.toldDeferred = false;
    return { kind: "allowed" };
  }
  gate.waiting = { item, maintenance };
  const decision = await check(gate, maintenance);
  if (ticket !== gate.latest || gate.stopped) return { kind: "superseded" };
  if (decision.allowed) {
    gate.waiting = undefined;
    allowed(gate, decision);
    return decision.warning !== undefined ? { kind: "allowed", warning: decision.warning } : { kind: "allowed" };
  }
  deferred(gate, decision.reason);
  return { kind: "deferred", reason: decision.reason };
}

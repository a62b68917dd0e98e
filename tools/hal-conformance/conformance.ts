// The HAL conformance suite: what a backend must do for drivers to run on it unchanged, checked
// through the IO contract alone, capability by capability, on the wiring a person gives (pins
// jumpered together, serial ports looped, an I2C device with scratch registers). Each check
// ends as a row: pass, fail, or skipped with the reason.
import { IOError, type IOProvider } from "../../hal/io.js";
import { digitalChecks } from "./digital-checks.js";
import { i2cChecks } from "./i2c-checks.js";
import { pwmChecks } from "./pwm-checks.js";
import { serialChecks } from "./serial-checks.js";

export type RowStatus = "pass" | "fail" | "skip";

export interface ConformanceRow {
  capability: string;
  status: RowStatus;
  detail: string;
}

export interface ConformanceTarget {
  io: IOProvider;
  /** A pin's PWM as the hardware reports it, where the backend can read it back. */
  readPwm?(pin: string): { hz: number; duty: number; enabled?: boolean } | undefined;
  /** How long an edge may take to be noticed (a sampling backend's period, with margin). */
  settleMs: number;
}

export interface I2CScratch {
  bus: number;
  address: number;
  /** First of 16 registers the checks may write. */
  register: number;
}

export interface ConformancePlan {
  /** Pins wired to each other. */
  loops: Array<[string, string]>;
  /** Serial ports wired to each other, or one port with its TX looped to its RX. */
  serial: Array<[string, string | undefined]>;
  i2c: I2CScratch[];
  pwm: string[];
  bauds: number[];
}

export const DEFAULT_BAUDS = [9600, 57600, 115200];

/** One check: a thrown "unsupported" IOError skips it with its message; anything else fails it. */
export type Check = { capability: string; run: () => Promise<string | void> };

export async function runCheck(check: Check): Promise<ConformanceRow> {
  try {
    const detail = await check.run();
    return { capability: check.capability, status: "pass", detail: detail ?? "" };
  } catch (thrown) {
    if (thrown instanceof SkipCheck) return { capability: check.capability, status: "skip", detail: thrown.message };
    if (thrown instanceof IOError && thrown.code === "unsupported") return { capability: check.capability, status: "skip", detail: thrown.message };
    return { capability: check.capability, status: "fail", detail: (thrown as Error)?.message ?? String(thrown) };
  }
}

/** Thrown by a check that cannot be judged here (the backend cannot read a value back). */
export class SkipCheck extends Error {
  override name = "SkipCheck";
}

/** A failed expectation, with what was wanted and what came. */
export function expectEqual<T>(actual: T, expected: T, what: string): void {
  if (actual !== expected) throw new Error(`${what}: expected ${String(expected)}, got ${String(actual)}`);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function runConformance(target: ConformanceTarget, plan: ConformancePlan): Promise<ConformanceRow[]> {
  const rows: ConformanceRow[] = [];
  const section = async (kind: string, given: boolean, flag: string, checks: () => Check[], kinds: Array<keyof IOProvider>) => {
    const absent = kinds.filter((k) => !target.io[k]);
    if (!given) rows.push({ capability: kind, status: "skip", detail: `no ${flag} given` });
    else if (absent.length) rows.push({ capability: kind, status: "skip", detail: `${target.io.name} has no ${absent.join(" or ")} IO` });
    else for (const check of checks()) rows.push(await runCheck(check));
  };
  await section("digital", plan.loops.length > 0, "--loop", () => plan.loops.flatMap((loop) => digitalChecks(target, loop)), ["Digital"]);
  await section("pwm", plan.pwm.length > 0, "--pwm", () => plan.pwm.flatMap((pin) => pwmChecks(target, pin)), ["PWM"]);
  await section("serial", plan.serial.length > 0, "--serial", () => plan.serial.flatMap((ports) => serialChecks(target, ports, plan.bauds)), ["Serial"]);
  await section("i2c", plan.i2c.length > 0, "--i2c", () => plan.i2c.flatMap((scratch) => i2cChecks(target, scratch)), ["I2C", "SMBus"]);
  return rows;
}

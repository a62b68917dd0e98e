// The HAL conformance suite: what a backend must do for drivers to run on it unchanged, checked
// through the IO contract alone, capability by capability, on the wiring a person gives (pins
// jumpered together, serial ports looped, an I2C device with scratch registers). Each check
// ends as a row: pass, fail, or skipped with the reason.
import type { IOProvider } from "../../hal/io.js";
import { runCheck, type Check, type ConformanceRow, type ConformanceTarget, type I2CScratch } from "./check.js";
import { digitalChecks } from "./digital-checks.js";
import { i2cChecks } from "./i2c-checks.js";
import { pwmChecks } from "./pwm-checks.js";
import { serialChecks } from "./serial-checks.js";

export type { Check, ConformanceRow, ConformanceTarget, I2CScratch, RowStatus } from "./check.js";

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

// What one conformance check is and how it ends: the target it runs on, the row it leaves (pass,
// fail, or skipped with the reason), and the small helpers the checks share.
import { IOError, type IOProvider } from "../../hal/io.js";

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


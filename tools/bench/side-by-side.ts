// Two servers measured in the same run under the same load: the machine is shared and its load
// drifts, so they take turns in short rounds (alternating who goes first) and each figure printed
// is the median round. Prints calls/s for each, their ratio, p50/p99 latency and the server's CPU
// per call.
import { runLoad, type Caller, type Run } from "./grpc-load.js";
import { report } from "./report.js";

export interface Contender {
  label: string;
  /** Opened by the caller; closed here when the comparison ends. */
  caller: Caller;
  /** The server's process, for its CPU time. */
  pid: number;
}

export interface SideBySideOptions {
  /** The start of every printed line. */
  name: string;
  /** The RPC measured, as printed ("GetReadings"). */
  method: string;
  subject: Contender;
  baseline: Contender;
  /** How the ratio subject / baseline is printed ("svc / bare"). */
  ratioLabel: string;
  /** Calls in flight at any time. */
  callers: number;
  /** Measured calls for each contender, split over the rounds. */
  calls: number;
  rounds: number;
  /** Unmeasured calls for each contender first. */
  warmUpCalls: number;
  /** Goal printed with the ratio. */
  ratioGoal?: string;
}

export interface SideBySide {
  subject: Run;
  baseline: Run;
  /** Calls each contender answered, warm-up included. */
  callsEach: number;
}

export async function compareSideBySide(options: SideBySideOptions): Promise<SideBySide> {
  const { subject, baseline, callers, rounds } = options;
  const contenders = [subject, baseline] as const;
  const runs = new Map<Contender, Run[]>(contenders.map((c) => [c, []]));
  const perRound = Math.ceil(options.calls / rounds);
  try {
    for (const c of contenders) await runLoad(c.caller, options.warmUpCalls, callers, c.pid);
    for (let round = 0; round < rounds; round++) {
      for (const c of round % 2 ? [baseline, subject] : contenders) {
        runs.get(c)!.push(await runLoad(c.caller, perRound, callers, c.pid));
      }
    }
  } finally {
    for (const c of contenders) c.caller.close();
  }
  const median = (c: Contender): Run => ({
    perSecond: medianOf(runs.get(c)!.map((r) => r.perSecond)),
    p50: medianOf(runs.get(c)!.map((r) => r.p50)),
    p99: medianOf(runs.get(c)!.map((r) => r.p99)),
    cpuPerCall: medianOf(runs.get(c)!.map((r) => r.cpuPerCall)),
  });
  const result = { subject: median(subject), baseline: median(baseline), callsEach: options.warmUpCalls + perRound * rounds };
  const { name, method } = options;
  const figures = [
    [subject, result.subject],
    [baseline, result.baseline],
  ] as const;
  for (const [c, run] of figures) report(`${name} ${method}, ${c.label}`, run.perSecond, "calls/s");
  report(`${name} ${method}, ${options.ratioLabel}`, result.subject.perSecond / result.baseline.perSecond, "x", options.ratioGoal);
  for (const [c, run] of figures) {
    report(`${name} latency p50, ${c.label}`, run.p50, "ms");
    report(`${name} latency p99, ${c.label}`, run.p99, "ms");
  }
  for (const [c, run] of figures) report(`${name} server CPU per call, ${c.label}`, run.cpuPerCall, "µs");
  return result;
}

/** The median of a list of numbers (the mean of the middle two for an even count). */
export function medianOf(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return (sorted[(sorted.length - 1) >> 1]! + sorted[sorted.length >> 1]!) / 2;
}

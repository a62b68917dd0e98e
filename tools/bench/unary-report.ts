// The unary bench's lines: for each measure and contender calls/s, latency p50/p99, server CPU
// per call and, for the Node servers, garbage collection per call; then the ratios of server CPU
// per call the goals are set on.
import { report } from "./report.js";
import type { Measure, Medians } from "./rounds.js";

export interface Goals {
  /** Server CPU per call, µs. */
  cpu?: string;
  /** Garbage collection per call, µs. */
  gc?: string;
}

export interface UnaryMeasure extends Measure {
  /** Goals for a contender's figures, by its label. */
  goals?: Readonly<Record<string, Goals>>;
  /** Ratios of server CPU per call (or, with "gc", of garbage collection per call): subject label, baseline label, goal. */
  ratios?: readonly (readonly [string, string, string?, "gc"?])[];
}

export function printUnary(medians: Medians, measures: readonly UnaryMeasure[]): void {
  for (const measure of measures) {
    const figures = medians.get(measure)!;
    const name = measure.name;
    for (const [c, w] of figures) {
      const goals = measure.goals?.[c.label] ?? {};
      report(`${name}, ${c.label}`, w.perSecond, "calls/s");
      report(`${name}, latency p50, ${c.label}`, w.p50, "ms");
      report(`${name}, latency p99, ${c.label}`, w.p99, "ms");
      report(`${name}, server CPU per call, ${c.label}`, w.cpuPerCall, "µs", goals.cpu);
      if (w.helperCpuPerCall !== undefined) {
        report(`${name}, module CPU per call, ${c.label}`, w.helperCpuPerCall, "µs");
        report(`${name}, server and module CPU per call, ${c.label}`, w.cpuPerCall + w.helperCpuPerCall, "µs");
      }
      if (w.gcPerCall !== undefined) report(`${name}, GC time per call, ${c.label}`, w.gcPerCall, "µs", goals.gc);
      if (w.gcCountPer1000Calls !== undefined) report(`${name}, GCs per 1,000 calls, ${c.label}`, w.gcCountPer1000Calls, "GCs");
    }
    const byLabel = new Map([...figures].map(([c, w]) => [c.label, w]));
    for (const [subject, baseline, goal, kind] of measure.ratios ?? []) {
      const [of, base] = [byLabel.get(subject)!, byLabel.get(baseline)!];
      if (kind === "gc") report(`${name}, GC time per call, ${subject} / ${baseline}`, of.gcPerCall! / base.gcPerCall!, "x", goal);
      else report(`${name}, server CPU per call, ${subject} / ${baseline}`, of.cpuPerCall / base.cpuPerCall, "x", goal);
    }
  }
}

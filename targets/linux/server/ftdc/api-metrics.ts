// The API from the server's call counter: calls and errors since start, in total and by method
// ("/viam.component.sensor.v1.SensorService/GetReadings"), with each method's mean latency over
// the last period and its 99th percentile since start.
import type { MetricTree } from "../../../../core/index.js";
import type { CallCounter } from "../diagnostics/index.js";
import type { FtdcSource } from "./ftdc-source.js";

export function apiMetrics(calls: CallCounter): FtdcSource {
  const seen = new Map<string, { count: number; sumMs: number }>();
  return {
    sample() {
      const api: MetricTree = {};
      let total = 0;
      let errors = 0;
      for (const [method, stats] of calls.methods) {
        const before = seen.get(method) ?? { count: 0, sumMs: 0 };
        const count = stats.count - before.count;
        api[method] = {
          calls: stats.count,
          errors: stats.errors,
          latency_mean_ms: count > 0 ? (stats.latencySumMs - before.sumMs) / count : 0,
          latency_p99_ms: stats.latency.summary().p99,
        };
        seen.set(method, { count: stats.count, sumMs: stats.latencySumMs });
        total += stats.count;
        errors += stats.errors;
      }
      api.calls = total;
      api.errors = errors;
      return { api };
    },
  };
}

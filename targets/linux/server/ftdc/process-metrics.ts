// svc-server's own process: CPU user and system time as a share of one core over the last
// period, the resident set, the V8 heap, and the event loop's delay (mean and max over the period,
// beyond the histogram's own timer period, reset each sample).
import { monitorEventLoopDelay } from "node:perf_hooks";
import type { FtdcSource } from "./ftdc-source.js";

// Node's histogram times a timer of this period: what it records beyond the period is the delay.
const LOOP_RESOLUTION_MS = 20;

export interface ProcessMetricsOptions {
  /** Milliseconds, for the length of each period. */
  now: () => number;
}

export function processMetrics(options: ProcessMetricsOptions): FtdcSource {
  const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  loop.enable();
  let lastCpu = process.cpuUsage();
  let lastAt = options.now();
  return {
    sample() {
      const at = options.now();
      const cpu = process.cpuUsage();
      const elapsedUs = Math.max(1, (at - lastAt) * 1000);
      const memory = process.memoryUsage();
      const tree = {
        process: {
          cpu_user_pct: (100 * (cpu.user - lastCpu.user)) / elapsedUs,
          cpu_system_pct: (100 * (cpu.system - lastCpu.system)) / elapsedUs,
          rss_bytes: memory.rss,
          heap_used_bytes: memory.heapUsed,
          heap_total_bytes: memory.heapTotal,
          event_loop_delay_mean_ms: loop.count > 0 ? Math.max(0, loop.mean / 1e6 - LOOP_RESOLUTION_MS) : 0,
          event_loop_delay_max_ms: loop.count > 0 ? Math.max(0, loop.max / 1e6 - LOOP_RESOLUTION_MS) : 0,
        },
      };
      loop.reset();
      lastCpu = cpu;
      lastAt = at;
      return tree;
    },
    close: () => loop.disable(),
  };
}
